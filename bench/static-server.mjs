// The baseline of the help-center article page in `npm run bench`: Fastify + @fastify/static
// serving files of STATIC_ROOT (the page's HTML saved from Switchboard's answer), logging one pino
// line per finished request at LOG_LEVEL as Switchboard and bench/raw-server.mjs do. Nothing else:
// what a page costs above this is the site's reading and rendering.
// Plain JavaScript, so it starts with node alone.
import fastifyStatic from '@fastify/static';
import Fastify, { LogController } from 'fastify';

const PORT = Number(process.env.PORT ?? 3002);
const ROOT = process.env.STATIC_ROOT;
if (!ROOT) {
  throw new Error('STATIC_ROOT is required');
}

const app = Fastify({
  logger: { level: process.env.LOG_LEVEL ?? 'info' },
  logController: new LogController({ disableRequestLogging: true }),
});
app.addHook('onResponse', async (request, reply) => {
  request.log.info(
    { method: request.method, url: request.url, status: reply.statusCode, latencyMs: reply.elapsedTime },
    'request finished',
  );
});
await app.register(fastifyStatic, { root: ROOT });

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, async () => {
    await app.close();
    process.exit(0);
  });
}

await app.listen({ port: PORT, host: '127.0.0.1' });
