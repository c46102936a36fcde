import { useCallback, useRef, useState } from 'react';
import { type AgentTurn, applyRunEvent, newAgentTurn, type Turn } from './playground-turns';
import { createPlaygroundThread, decideAndStream, type RunEvent, runOf, sendAndStream } from './run-stream';

type Streamer = (onEvent: (event: RunEvent) => void) => Promise<boolean>;

/**
 * One playground conversation: a thread made on the first message, the turns as they stream in,
 * the decisions on paused runs, and "Reset" for a new thread. A refused request is `problem`.
 */
export function usePlayground(agentId: string) {
  const [threadId, setThreadId] = useState<string | null>(null);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Each reset starts a generation: what an older conversation still streams is dropped.
  const generation = useRef(0);
  const keys = useRef(0);

  const changeTurn = useCallback((key: string, change: (turn: AgentTurn) => AgentTurn) => {
    setTurns((current) => current.map((turn) => (turn.kind === 'agent' && turn.key === key ? change(turn) : turn)));
  }, []);

  /** Streams into the turn `key`, then reads the run as stored: its final status and its error. */
  const streamInto = useCallback(
    async (key: string, streamer: Streamer) => {
      const mine = generation.current;
      let runId: string | null = null;
      const streamed = await streamer((event) => {
        if (mine !== generation.current) {
          return;
        }
        if (event.event === 'run' || event.event === 'done') {
          runId = event.data.run_id;
        }
        changeTurn(key, (turn) => applyRunEvent(turn, event));
      });
      if (!streamed && mine === generation.current) {
        changeTurn(key, (turn) => ({ ...turn, status: 'not_started' }));
      }
      if (runId && mine === generation.current) {
        const run = await runOf(agentId, runId);
        changeTurn(key, (turn) => ({
          ...turn,
          status: run.status,
          error: run.error,
          text: turn.text || run.final_text || '',
        }));
      }
    },
    [agentId, changeTurn],
  );

  const run = useCallback(async (work: () => Promise<void>): Promise<boolean> => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
      return true;
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);

  const send = useCallback(
    (text: string) =>
      run(async () => {
        const thread = threadId ?? (await createPlaygroundThread(agentId)).id;
        setThreadId(thread);
        const key = String(++keys.current);
        setTurns((current) => [...current, { kind: 'user', key: `${key}-user`, text }, newAgentTurn(key)]);
        try {
          await streamInto(key, (onEvent) => sendAndStream(agentId, thread, text, onEvent));
        } catch (error) {
          // Refused before any run started: the message was not taken, so neither turn stays.
          setTurns((current) => current.filter((turn) => turn.key !== key && turn.key !== `${key}-user`));
          throw error;
        }
      }),
    [agentId, run, streamInto, threadId],
  );

  const decide = useCallback(
    (turn: AgentTurn, approved: boolean) =>
      run(async () => {
        const runId = turn.approval?.runId;
        if (!runId) {
          return;
        }
        changeTurn(turn.key, (current) => ({
          ...current,
          approval: null,
          decision: approved ? 'approved' : 'rejected',
          status: 'running',
        }));
        await streamInto(turn.key, (onEvent) => decideAndStream(agentId, runId, approved, onEvent));
      }),
    [agentId, changeTurn, run, streamInto],
  );

  const reset = useCallback(() => {
    generation.current++;
    setThreadId(null);
    setTurns([]);
    setProblem(null);
  }, []);

  return { turns, busy, problem, send, decide, reset };
}
