import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/**
 * The Fastify instance a route plugin receives, typed by TypeBox: what a function that registers a
 * group of a plugin's routes takes, so a long plugin is split without changing its routes' order.
 */
export type TypeBoxApp = Parameters<FastifyPluginAsyncTypebox>[0];
