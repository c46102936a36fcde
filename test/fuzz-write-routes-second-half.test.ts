import { describeWriteRouteFuzz } from './fuzz/write-route-fuzz.js';

// The second half of the write routes; the first is fuzz-write-routes.test.ts.
describeWriteRouteFuzz(1, 2);
