import { describeWriteRouteFuzz } from './fuzz/write-route-fuzz.js';

// The first half of the write routes; the second is fuzz-write-routes-second-half.test.ts.
describeWriteRouteFuzz(0, 2);
