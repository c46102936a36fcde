import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { refuseWrites } from '../../../test/refusing-trigger.js';
import { openTicketAgentDesk, type TicketAgentDesk } from '../../../test/ticket-agent-desk.js';
import { JOB_LEASE_MS, type TicketAgentWorker } from './ticket-agent.worker.js';

/** A job whose end the database will not record is failed, saying why; it is not answered again, and the next job goes. */
describe.each(DIALECTS)('ticket agent jobs that cannot be recorded on %s', (dialect) => {
  let desk: TicketAgentDesk;
  let worker: TicketAgentWorker;

  beforeAll(async () => {
    desk = await openTicketAgentDesk(dialect, 'records');
    worker = desk.workerOf();
    await desk.setMode('draft');
  });
  afterAll(async () => {
    await desk?.close();
  });
  beforeEach(() => desk.model.reset());

  it('fails a job whose end the database refuses, without answering its ticket again, and answers the next ticket', async () => {
    const first = await desk.customerWrites('Can I get a refund?');
    const undo = await refuseWrites(
      desk.harness.db,
      'ticket_agent_jobs',
      `new.status = 'done' and new.ticket_id = '${first.id}'`,
      'update',
    );
    try {
      desk.searchThenAnswer('refund', () => 'Within thirty days (Refund policy).');
      await worker.runOnce();
      const [job] = await desk.jobsOf(first.id);
      expect(job).toMatchObject({ status: 'failed', locked_until: null, outcome: null });
      expect(job?.error).toMatch(/^The job's end could not be recorded \(.*the database refuses this row/);
      expect(job?.run_id).toEqual(expect.any(String));
      const notes = async () => (await desk.commentsOf(first.id)).filter((comment) => comment.authorUserType === 'AI_AGENT');
      expect(await notes()).toHaveLength(1);

      // Long after its lease would have run out: never taken again, so the customer is not answered twice.
      const calls = desk.model.requests.length;
      desk.harness.clock.advance(3 * JOB_LEASE_MS);
      await worker.runOnce();
      expect(desk.model.requests).toHaveLength(calls);
      expect(await notes()).toHaveLength(1);

      const second = await desk.customerWrites('And a second question about refunds?');
      desk.searchThenAnswer('refund', () => 'Also thirty days.');
      await worker.runOnce();
      expect(await desk.jobsOf(second.id)).toEqual([expect.objectContaining({ status: 'done', error: null })]);
    } finally {
      await undo();
    }
  });
});
