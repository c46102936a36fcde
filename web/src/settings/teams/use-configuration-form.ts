import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ApiError, api, unwrap } from '../../api/client';
import { showApiError } from '../../ui/use-api-form';
import {
  messageForForm,
  type SlotOrigins,
  slotsToApi,
  slotsToForm,
  WEEKDAYS,
  weekToApi,
  weekToForm,
} from './business-hours-form';
import { configurationQuery, type TeamConfiguration, type TeamConfigurationUpdate, teamKeys } from './team-queries';

const TIME = /^\d{2}:\d{2}$/;
const SlotSchema = z.object({
  start: z.string().regex(TIME, 'Enter the time it opens'),
  end: z.string().regex(TIME, 'Enter the time it closes'),
});
const DaySchema = z.object({ isActive: z.boolean(), slots: z.array(SlotSchema) });

/** The form's own checks are only that times are filled in; the API judges the rest. */
const ConfigurationSchema = z.object({
  timezone: z.string().trim().min(1, 'Pick the time zone the hours are in'),
  commonDailyConfig: z.boolean(),
  commonSlots: z.array(SlotSchema),
  dailyConfig: z.object(
    Object.fromEntries(WEEKDAYS.map((day) => [day, DaySchema])) as Record<(typeof WEEKDAYS)[number], typeof DaySchema>,
  ),
  holidays: z.array(z.object({ value: z.string() })),
  routingRespectsTimezone: z.boolean(),
  routingRespectsUserCapacity: z.boolean(),
  routingRespectsUserTimezone: z.boolean(),
  routingRespectsUserAvailability: z.boolean(),
  routingRespectsUserBusinessHours: z.boolean(),
  userRoutingStrategy: z.enum(['manual', 'round_robin']),
  fallbackSubTeam: z.string(),
});
export type ConfigurationValues = z.infer<typeof ConfigurationSchema>;

export const ROUTING_SWITCHES = [
  'routingRespectsTimezone',
  'routingRespectsUserCapacity',
  'routingRespectsUserTimezone',
  'routingRespectsUserAvailability',
  'routingRespectsUserBusinessHours',
] as const;

function valuesOf(configuration: TeamConfiguration): ConfigurationValues {
  return {
    timezone: configuration.timezone,
    commonDailyConfig: configuration.commonDailyConfig,
    commonSlots: slotsToForm(configuration.commonSlots),
    dailyConfig: weekToForm(configuration.dailyConfig),
    holidays: configuration.holidays.map((value) => ({ value })),
    routingRespectsTimezone: configuration.routingRespectsTimezone,
    routingRespectsUserCapacity: configuration.routingRespectsUserCapacity,
    routingRespectsUserTimezone: configuration.routingRespectsUserTimezone,
    routingRespectsUserAvailability: configuration.routingRespectsUserAvailability,
    routingRespectsUserBusinessHours: configuration.routingRespectsUserBusinessHours,
    userRoutingStrategy: configuration.userRoutingStrategy,
    fallbackSubTeam: configuration.fallbackSubTeam ?? '',
  };
}

/**
 * The body of the one PATCH, and where each slot sent came from. With "same hours every day"
 * the per-day hours are not sent, so the API keeps them for when it is turned off again.
 */
function bodyOf(values: ConfigurationValues): { body: TeamConfigurationUpdate; origins: SlotOrigins } {
  const common = slotsToApi(values.commonSlots);
  const week = weekToApi(values.dailyConfig);
  const body: TeamConfigurationUpdate = {
    timezone: values.timezone.trim(),
    commonDailyConfig: values.commonDailyConfig,
    commonSlots: common.slots,
    ...(values.commonDailyConfig ? {} : { dailyConfig: week.dailyConfig }),
    holidays: values.holidays.map((holiday) => holiday.value),
    routingRespectsTimezone: values.routingRespectsTimezone,
    routingRespectsUserCapacity: values.routingRespectsUserCapacity,
    routingRespectsUserTimezone: values.routingRespectsUserTimezone,
    routingRespectsUserAvailability: values.routingRespectsUserAvailability,
    routingRespectsUserBusinessHours: values.routingRespectsUserBusinessHours,
    userRoutingStrategy: values.userRoutingStrategy,
    fallbackSubTeam: values.fallbackSubTeam || null,
  };
  return { body, origins: { ...common.origins, ...week.origins } };
}

/**
 * The team's configuration as one form across the hours and routing tabs, saved by one PATCH.
 * A refused save keeps what was typed and puts the API's words beside the slot, holiday or
 * switch they name, in the form's own terms (an overnight slot is one slot here, two there).
 */
export function useConfigurationForm(teamId: string) {
  const query = useQuery(configurationQuery(teamId));
  const form = useForm<ConfigurationValues>({ resolver: zodResolver(ConfigurationSchema) });
  const queryClient = useQueryClient();
  const loaded = useRef<TeamConfiguration | null>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (query.data && query.data !== loaded.current && !form.formState.isDirty) {
      loaded.current = query.data;
      form.reset(valuesOf(query.data));
      setReady(true);
    }
  }, [query.data, form]);
  const save = useMutation({
    mutationFn: async (values: ConfigurationValues) => {
      const { body, origins } = bodyOf(values);
      try {
        return (await unwrap(api.PATCH('/v1/teams/{teamId}/configurations', { params: { path: { teamId } }, body }))).data;
      } catch (error) {
        throw error instanceof ApiError ? new ApiError(error.status, messageForForm(error.message, origins)) : error;
      }
    },
    onSuccess: (configuration) => {
      loaded.current = configuration;
      queryClient.setQueryData(teamKeys.configuration(teamId), configuration);
      form.reset(valuesOf(configuration));
      void queryClient.invalidateQueries({ queryKey: teamKeys.hoursStatus(teamId) });
    },
    onError: (error) => showApiError(form, error),
  });
  const reload = async () => {
    const fresh = await query.refetch();
    if (fresh.data) {
      loaded.current = fresh.data;
      form.reset(valuesOf(fresh.data));
    }
  };
  return {
    form,
    ready,
    error: query.error,
    saving: save.isPending,
    saved: save.isSuccess && !form.formState.isDirty,
    submit: form.handleSubmit((values) => save.mutate(values)),
    reload,
  };
}

export type ConfigurationForm = ReturnType<typeof useConfigurationForm>;
