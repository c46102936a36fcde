import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.js';
import { setUpArea } from '../http/area.js';
import { HelpCenterErrorSchema, renderHelpCenterError } from './help-center.envelope.js';

/** The help center, mounted without a version prefix. */
export function helpCenterPlugin(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    await setUpArea(app, deps, {
      name: 'helpCenter',
      title: 'Switchboard help center',
      description: 'Help centers, nested collections of articles, and tags.',
      errorSchemas: { HelpCenterError: HelpCenterErrorSchema },
      renderError: renderHelpCenterError,
    });
  };
}
