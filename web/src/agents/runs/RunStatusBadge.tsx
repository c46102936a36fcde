import { Badge, type BadgeTone } from '../../ui/Badge';
import { RUN_STATUS_LABELS, type RunStatus } from './run-queries';

const TONES: Record<RunStatus, BadgeTone> = {
  queued: 'neutral',
  running: 'blue',
  awaiting_approval: 'amber',
  succeeded: 'green',
  failed: 'red',
  rejected: 'violet',
};

/** A run's status in words, coloured as it ended or is going. */
export function RunStatusBadge({ status }: { status: RunStatus }) {
  return <Badge tone={TONES[status]}>{RUN_STATUS_LABELS[status]}</Badge>;
}
