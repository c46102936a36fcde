import { useId } from 'react';
import { useWatch } from 'react-hook-form';
import { CheckboxField, InputField } from '../../ui/FormField';
import { WEEKDAY_LABELS, WEEKDAYS, type Weekday } from './business-hours-form';
import { ConfigurationSaveBar } from './ConfigurationSaveBar';
import { HolidayList } from './HolidayList';
import { HoursStatusLine } from './HoursStatusLine';
import { SlotList } from './SlotList';
import { TimeZoneOptions } from './TimeZoneOptions';
import type { ConfigurationForm } from './use-configuration-form';

/** The team's week: its time zone, slots per day or the same every day, overnight slots, holidays. */
export function BusinessHoursPanel({ teamId, configuration }: { teamId: string; configuration: ConfigurationForm }) {
  const { form, submit } = configuration;
  const zones = useId();
  const sameEveryDay = useWatch({ control: form.control, name: 'commonDailyConfig' });
  const errors = form.formState.errors;
  return (
    <form className="flex flex-col gap-5" noValidate onSubmit={submit}>
      <HoursStatusLine teamId={teamId} />
      <InputField
        label="Time zone"
        hint="The hours and holidays are this zone's local time. Type to search, e.g. Paris."
        className="max-w-sm"
        list={zones}
        autoComplete="off"
        error={errors.timezone?.message}
        {...form.register('timezone')}
      />
      <TimeZoneOptions id={zones} />
      <CheckboxField
        label="Same hours every day"
        hint="One set of slots for all seven days, weekends included. Your per-day hours are kept for when this is off."
        error={errors.commonDailyConfig?.message}
        {...form.register('commonDailyConfig')}
      />
      {sameEveryDay ? (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-semibold">Every day</legend>
          <SlotList form={form} name="commonSlots" dayLabel="Every day" />
          {errors.commonSlots?.message ? (
            <p className="text-xs text-red-700 dark:text-red-400">{errors.commonSlots.message}</p>
          ) : null}
        </fieldset>
      ) : (
        <WeekGrid configuration={configuration} />
      )}
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        A slot that closes before it opens (22:00 to 02:00) runs overnight into the next day. A close of 00:00 is midnight.
      </p>
      <HolidayList form={form} />
      <ConfigurationSaveBar configuration={configuration} />
    </form>
  );
}

function WeekGrid({ configuration }: { configuration: ConfigurationForm }) {
  const { form } = configuration;
  const week = useWatch({ control: form.control, name: 'dailyConfig' });
  return (
    <div className="flex flex-col divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
      {WEEKDAYS.map((day) => (
        <fieldset key={day} className="grid gap-2 p-3 sm:grid-cols-[10rem_1fr]">
          <legend className="sr-only">{WEEKDAY_LABELS[day]}</legend>
          <DaySwitch configuration={configuration} day={day} />
          {week?.[day]?.isActive ? (
            <SlotList form={form} name={`dailyConfig.${day}.slots`} dayLabel={WEEKDAY_LABELS[day]} />
          ) : (
            <p className="text-sm text-zinc-500 dark:text-zinc-400">Closed</p>
          )}
        </fieldset>
      ))}
    </div>
  );
}

/** Opening a day with no slots gives it the usual 09:00 to 17:00 to start from. */
function DaySwitch({ configuration, day }: { configuration: ConfigurationForm; day: Weekday }) {
  const { form } = configuration;
  const active = form.register(`dailyConfig.${day}.isActive`);
  return (
    <CheckboxField
      label={`Open on ${WEEKDAY_LABELS[day]}`}
      {...active}
      onChange={(event) => {
        void active.onChange(event);
        if (event.target.checked && form.getValues(`dailyConfig.${day}.slots`).length === 0) {
          form.setValue(`dailyConfig.${day}.slots`, [{ start: '09:00', end: '17:00' }], { shouldDirty: true });
        }
      }}
    />
  );
}
