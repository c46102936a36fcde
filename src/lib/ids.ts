import { randomBytes, randomUUID } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import type { Clock } from './clock.js';

/** Platform identifiers: 26-character, time-sortable, uppercase Crockford ULIDs. */
export const ULID_PATTERN = '^[0-9A-HJKMNP-TV-Z]{26}$';
/** Help center identifiers: 24 lowercase hex digits, the object-identifier form. */
export const OBJECT_ID_PATTERN = '^[0-9a-f]{24}$';

export interface IdFactory {
  ulid(): string;
  objectId(): string;
  uuid(): string;
}

/**
 * One generator per app so that ids made in the same millisecond stay ordered (monotonic ULIDs)
 * and follow the injected clock. The object id is written here rather than taken from `bson`:
 * it is four fields of bytes, and that package would be the only reason to pull in BSON.
 */
export function createIdFactory(clock: Clock): IdFactory {
  const nextUlid = monotonicFactory(pooledRandom());
  const processRandom = randomBytes(5);
  let counter = randomBytes(3).readUIntBE(0, 3);
  return {
    ulid: () => nextUlid(clock.now().getTime()),
    objectId: () => {
      counter = (counter + 1) % 0xffffff;
      const id = Buffer.alloc(12);
      id.writeUInt32BE(Math.floor(clock.now().getTime() / 1000) >>> 0, 0);
      processRandom.copy(id, 4);
      id.writeUIntBE(counter, 9, 3);
      return id.toString('hex');
    },
    uuid: () => randomUUID(),
  };
}

const POOL_BYTES = 4096;

/**
 * The ULID generator asks for one random number per character (16 per id). Its default draws each
 * from the system's generator one byte at a time; this one hands out bytes of one buffer filled
 * once per 256 ids. A byte over 256 maps onto the 32 characters evenly (256 / 32 = 8).
 */
function pooledRandom(): () => number {
  let pool = randomBytes(POOL_BYTES);
  let next = 0;
  return () => {
    if (next === POOL_BYTES) {
      pool = randomBytes(POOL_BYTES);
      next = 0;
    }
    return (pool[next++] as number) / 256;
  };
}
