import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import type { Team } from './team-queries';

const WHAT_ARCHIVING_DOES =
  'The team leaves the lists and pickers, and new tickets can no longer go to it. Its tickets keep it, and its ' +
  'identifier stays reserved. A team with active sub-teams cannot be archived: archive them first.';

/** Asks before archiving, says what it does, and shows the API's refusal (active sub-teams) in place. */
export function ArchiveTeamDialog({ team, onClose }: { team: Team | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const archive = useMutation({
    mutationFn: async (teamId: string) => unwrap(api.DELETE('/v1/teams/{teamId}', { params: { path: { teamId } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['teams'] });
      onClose();
    },
  });
  const close = () => {
    archive.reset();
    onClose();
  };
  return (
    <Dialog
      open={team !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={`Archive ${team?.name ?? 'team'}?`}
      description={WHAT_ARCHIVING_DOES}
    >
      <div className="flex flex-col gap-3 p-4">
        <ErrorNotice error={archive.error} />
        <div className="flex justify-end gap-2">
          <Button onClick={close}>Cancel</Button>
          <Button variant="danger" disabled={archive.isPending || !team} onClick={() => team && archive.mutate(team.id)}>
            Archive team
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
