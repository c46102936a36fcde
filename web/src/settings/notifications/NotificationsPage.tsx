import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useMe } from '../../auth/session';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { UserPicker } from '../../ui/UserPicker';
import { NotificationPreferencesForm } from './NotificationPreferencesForm';
import { fetchPreferences, notificationKeys } from './notifications-api';

/** Which ticket emails a user gets: the signed-in user's own, or (admins) anyone's. */
export function NotificationsPage() {
  const me = useMe();
  const [userId, setUserId] = useState(me.user.id);
  const isSelf = userId === me.user.id;
  const preferences = useQuery({
    queryKey: notificationKeys.ofUser(userId),
    queryFn: () => fetchPreferences(userId, isSelf),
  });
  return (
    <div>
      <PageHeader
        title="Notifications"
        description="Ticket emails go to the assignee, or to the team while nobody is assigned. Nobody is emailed about their own change."
      />
      <div className="flex max-w-2xl flex-col gap-4 p-4">
        {me.user.userType === 'ORG_ADMIN' ? (
          <UserPicker label="Notifications of" value={userId} onChange={setUserId} selfId={me.user.id} />
        ) : null}
        <ErrorNotice error={preferences.error} />
        {preferences.data ? (
          <NotificationPreferencesForm
            key={userId}
            userId={userId}
            isSelf={isSelf}
            preferences={preferences.data}
            onReload={() => void preferences.refetch()}
          />
        ) : null}
      </div>
    </div>
  );
}
