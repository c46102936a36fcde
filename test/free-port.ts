import { createServer } from 'node:net';

/** A loopback port nobody listens on right now: bind to 0, read it, let it go. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') {
    throw new Error('not listening on a TCP port');
  }
  return address.port;
}
