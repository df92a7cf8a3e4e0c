import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from './random';
import { asyncEventStore, getStreamTrial, type Lane, runTrials, startLane } from './resume-trials';

// Issue 12, defect 1, on the standalone GET stream: 500 trials (500 more on POST streams in
// resume-post-streams.test.ts). A new session opens its GET stream through a proxy that cuts the socket at a random
// byte after the priming event; the server sends a numbered run of notifications on it (some paced one per turn,
// some in one turn); the client resumes with Last-Event-ID (some resumptions cut again) until it has the last one,
// and must hold every notification exactly once, in order.

const TRIALS = 500;
const random = seededRandom();
let lanes: Lane[] = [];

beforeAll(async () => {
  // Node fast path and web Response path, each with the in-memory store and with an asynchronous one.
  lanes = await Promise.all([
    startLane(false),
    startLane(false, { eventStore: asyncEventStore() }),
    startLane(true),
    startLane(true, { eventStore: asyncEventStore() }),
  ]);
});
afterAll(async () => {
  await Promise.all(lanes.map((lane) => lane.close()));
});

describe('legacy GET streams cut at random points (real sockets, 127.0.0.1)', () => {
  it(`lose and duplicate nothing after resumption with Last-Event-ID (${TRIALS} trials)`, async () => {
    const totals = await runTrials(lanes, TRIALS, (lane, index) => getStreamTrial(lane, random, `g${index}`));
    const cuts = lanes.reduce((sum, lane) => sum + lane.proxy.cuts, 0);
    const summary = `seed ${random.seed}: ${cuts} cuts, ${totals.resumes} resumptions, ${totals.lost} lost, ${totals.duplicated} duplicated`;
    expect(totals.problems.slice(0, 5), summary).toEqual([]);
    expect({ lost: totals.lost, duplicated: totals.duplicated }, summary).toEqual({ lost: 0, duplicated: 0 });
    expect(cuts, summary).toBeGreaterThan(TRIALS / 2);
  }, 60_000);
});
