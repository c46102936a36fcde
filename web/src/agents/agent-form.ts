import type { AgentCreate, StudioAgent } from '../api/agent-studio-client';

/** The run settings of an agent's `configuration` the form edits, each as typed (numbers too). */
export interface AgentSettingsValues {
  model_provider_id: string;
  model: string;
  system_instructions: string;
  temperature: string;
  max_steps: string;
  tool_timeout_seconds: string;
  run_timeout_seconds: string;
  max_output_tokens: string;
  monthly_token_budget: string;
}

export interface AgentFormValues {
  name: string;
  description: string;
  status: 'active' | 'inactive';
  configuration: AgentSettingsValues;
}

type SettingName = keyof AgentSettingsValues;
const TEXT_SETTINGS = ['model_provider_id', 'model', 'system_instructions'] as const satisfies SettingName[];
const NUMBER_SETTINGS = [
  'temperature',
  'max_steps',
  'tool_timeout_seconds',
  'run_timeout_seconds',
  'max_output_tokens',
  'monthly_token_budget',
] as const satisfies SettingName[];
/** Settings the API takes as null for "the default"; the others are left out for it. */
const NULLABLE = new Set<SettingName>([
  'model_provider_id',
  'model',
  'system_instructions',
  'temperature',
  'max_output_tokens',
  'monthly_token_budget',
]);

const textOf = (value: unknown) => (value === null || value === undefined ? '' : String(value));

export function agentFormValues(agent?: StudioAgent): AgentFormValues {
  const configuration = agent?.configuration ?? {};
  const settings = Object.fromEntries(
    [...TEXT_SETTINGS, ...NUMBER_SETTINGS].map((name) => [name, textOf(configuration[name])]),
  ) as unknown as AgentSettingsValues;
  return {
    name: agent?.name ?? '',
    description: agent?.description ?? '',
    status: agent?.status ?? 'active',
    configuration: settings,
  };
}

/**
 * A typed number as the API takes it; what is not a number is sent as typed, so that the API's
 * own words say what is wrong with it beside the field.
 */
function numberOf(text: string): number | string {
  const value = Number(text);
  return Number.isFinite(value) ? value : text;
}

/**
 * The agent's body. The configuration is replaced whole, so what the form does not edit (keys other
 * clients keep there) is carried over from the saved agent; an emptied setting is null or left out.
 */
export function agentBody(values: AgentFormValues, saved?: StudioAgent): AgentCreate {
  const configuration: Record<string, unknown> = { ...(saved?.configuration ?? {}) };
  for (const name of [...TEXT_SETTINGS, ...NUMBER_SETTINGS]) {
    const typed = values.configuration[name].trim();
    delete configuration[name];
    if (typed !== '') {
      const isNumber = (NUMBER_SETTINGS as readonly string[]).includes(name);
      // Instructions are kept as typed, their blank lines and indents included.
      configuration[name] = isNumber ? numberOf(typed) : name === 'system_instructions' ? values.configuration[name] : typed;
    } else if (NULLABLE.has(name)) {
      configuration[name] = null;
    }
  }
  return {
    name: values.name,
    description: values.description.trim() === '' ? null : values.description,
    status: values.status,
    configuration,
  };
}
