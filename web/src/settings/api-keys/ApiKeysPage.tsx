import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { useMe } from '../../auth/session';
import { Button } from '../../ui/Button';
import { PageHeader } from '../../ui/PageHeader';
import { UserPicker } from '../../ui/UserPicker';
import { ApiKeyList } from './ApiKeyList';
import { NewApiKeyDialog } from './NewApiKeyDialog';

/** API keys for programs (integrations, scripts): issue one shown once, see when each was last used, revoke. */
export function ApiKeysPage() {
  const me = useMe();
  const [ownerId, setOwnerId] = useState(me.user.id);
  const [creating, setCreating] = useState(false);
  return (
    <div>
      <PageHeader
        title="API keys"
        description="Keys let programs call the API as a user, with that user's permissions. Give each integration its own key."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            <KeyRound size={16} aria-hidden />
            New API key
          </Button>
        }
      />
      <div className="flex flex-col gap-3 p-4">
        <UserPicker label="Keys of" value={ownerId} onChange={setOwnerId} selfId={me.user.id} />
        <ApiKeyList userId={ownerId} />
      </div>
      <NewApiKeyDialog open={creating} onOpenChange={setCreating} userId={ownerId} />
    </div>
  );
}
