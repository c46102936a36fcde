import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify's own response serializers (fast-json-stringify: declared fields only), built when a
 * route first answers with a status instead of for every route and status before the first
 * request, which took a good part of the start. Each is built once and kept. `compileSchemasAtStart`
 * in `buildApp` builds them all up front, so a schema fast-json-stringify refuses fails the tests.
 */
export function createSerializerFactory(options: { compileOnFirstUse: boolean }): SerializerFactory {
  const buildCompiler = SerializerSelector();
  return (externalSchemas, serializerOptions) => {
    const compile = buildCompiler(externalSchemas, serializerOptions);
    if (!options.compileOnFirstUse) {
      return compile;
    }
    return (route) => {
      let serialize: ((payload: unknown) => string) | undefined;
      return (payload: unknown) => {
        serialize ??= compile(route);
        return serialize(payload);
      };
    };
  };
}
