import { Type } from '@sinclair/typebox';
import { HttpUrlSchema, Nullable, StringEnum, TimestampSchema, UuidSchema } from '../../http/shared-schemas.js';
import { listPageFields } from '../agent-studio.pagination.js';

export const ModelProviderKindSchema = StringEnum(['openai_compatible', 'anthropic'] as const, {
  description:
    'openai_compatible: any OpenAI chat-completions endpoint (OpenAI, Azure OpenAI, vLLM, Ollama, LM Studio, llama.cpp); anthropic: the Messages API',
});

const PriceSchema = Type.Number({ minimum: 0, maximum: 1_000_000 });

/** A price per model: what a run's cost is computed from, in whatever currency the admin counts in. */
export const ModelPricesSchema = Type.Record(
  Type.String({ minLength: 1, maxLength: 200 }),
  Type.Object({ input_per_million_tokens: PriceSchema, output_per_million_tokens: PriceSchema }, { additionalProperties: false }),
  {
    maxProperties: 200,
    description: 'Model name → price per million input and output tokens; runs of unpriced models have no cost',
  },
);

export const ModelProviderSchema = Type.Object(
  {
    id: UuidSchema,
    organization_id: Type.String(),
    name: Type.String(),
    kind: ModelProviderKindSchema,
    base_url: Type.String(),
    default_model: Type.String(),
    model_prices: Nullable(ModelPricesSchema),
    has_api_key: Type.Boolean({ description: 'Whether an API key is stored; the key itself is never returned' }),
    created_by: Type.String({ description: 'Id of the user who added the provider' }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  },
  { additionalProperties: false, title: 'ModelProvider' },
);

const NameSchema = Type.String({ minLength: 1, maxLength: 100, description: 'Unique in the organization' });
const BaseUrlSchema = {
  ...HttpUrlSchema,
  description:
    'The API root, e.g. https://api.openai.com/v1, http://ollama.internal:11434/v1 or https://api.anthropic.com/v1; private addresses and plain http only where OUTBOUND_ALLOWED_HOSTS names the host',
};
const ApiKeySchema = Nullable(
  Type.String({ minLength: 1, maxLength: 4096, description: 'Stored encrypted, never returned; null or absent for none' }),
);
const ModelNameSchema = Type.String({ minLength: 1, maxLength: 200 });

// Agent-studio request bodies ignore unknown fields, as upstream does: no additionalProperties.
export const CreateModelProviderSchema = Type.Object(
  {
    name: NameSchema,
    kind: ModelProviderKindSchema,
    base_url: BaseUrlSchema,
    api_key: Type.Optional(ApiKeySchema),
    default_model: { ...ModelNameSchema, description: 'The model of agents that name none' },
    model_prices: Type.Optional(Nullable(ModelPricesSchema)),
  },
  { title: 'ModelProviderCreate' },
);

export const UpdateModelProviderSchema = Type.Object(
  {
    name: Type.Optional(NameSchema),
    kind: Type.Optional(ModelProviderKindSchema),
    base_url: Type.Optional(BaseUrlSchema),
    api_key: Type.Optional({
      ...ApiKeySchema,
      description:
        'A new key replaces the stored one; null removes it. Required (a key or null) with a new base_url while a key is stored',
    }),
    default_model: Type.Optional(ModelNameSchema),
    model_prices: Type.Optional(Nullable(ModelPricesSchema)),
  },
  { title: 'ModelProviderUpdate' },
);

export const ModelProviderParamsSchema = Type.Object({ provider_id: UuidSchema });
export const ListModelProvidersQuerySchema = Type.Object({ ...listPageFields() });

export const TestModelProviderSchema = Type.Object(
  { model: Type.Optional({ ...ModelNameSchema, description: 'Model to try; default the provider’s default_model' }) },
  { title: 'ModelProviderTest' },
);

export const ModelProviderTestResultSchema = Type.Object(
  {
    ok: Type.Boolean(),
    model: Type.String(),
    latency_ms: Type.Integer({ description: 'From the request to the end of the answer' }),
    reply: Nullable(Type.String({ description: 'The start of what the model answered' })),
    error: Nullable(Type.String({ description: 'Why the completion failed, with the provider’s own message where it gave one' })),
  },
  { additionalProperties: false, title: 'ModelProviderTestResult' },
);
