import type { SelfUser } from '@mesmer/shared/api/users';
import { CREATOR_ROLES } from '@mesmer/shared/domain/permissions';
import { useQueryClient } from '@tanstack/react-query';
import { HeartHandshake, Link2, RefreshCw, Unlink } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { currentUserQuery } from '../../api/users.ts';
import { ApiError } from '../../lib/api-client.ts';
import { PATREON_LINKING, PATREON_SECTION_ID } from '../../lib/site.ts';
import { Card, ConfirmPopup, SectionHeader, Spinner, Tag, toast } from '../../ui/index.ts';
import {
  useDisconnectPatreon,
  useImportPatreonTiers,
  useRefreshPatreon,
  useStartPatreonLink,
} from './api.ts';
import { membershipStatus } from './membership-status.ts';
import styles from './patreon.module.css';

const TONES = { Cancelled: 'warning', Active: 'success', Ended: undefined } as const;

export function MembershipStatusTag({ membership }: { membership: SelfUser['memberships'][number] }) {
  const status = membershipStatus(membership);
  return <Tag tone={TONES[status]}>{status}</Tag>;
}

const isCreator = (user: SelfUser) =>
  user.roles.some((r) => (CREATOR_ROLES as readonly string[]).includes(r.name));

const errorText = (err: unknown) =>
  err instanceof ApiError ? err.message : 'Something went wrong. Please try again.';

/**
 * The account page's Patreon card: link (through Patreon's authorize page), the memberships with
 * their status, Refresh and Disconnect. `linkingAvailable`: whether the site has a Patreon client.
 */
export function PatreonCard({
  user,
  linkingAvailable = PATREON_LINKING,
}: {
  user: SelfUser;
  linkingAvailable?: boolean;
}) {
  const card = useRef<HTMLDivElement>(null);
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === `#${PATREON_SECTION_ID}`) card.current?.scrollIntoView?.({ block: 'start' });
  }, [hash]);

  return (
    <div id={PATREON_SECTION_ID} ref={card} className={styles.anchor}>
      <Card className={styles.card}>
        <SectionHeader
          title={
            <span className={styles.title}>
              <HeartHandshake size={20} aria-hidden /> Patreon
            </span>
          }
        />
        {!linkingAvailable ? (
          <NotConfigured user={user} />
        ) : user.patreonLinked ? (
          <Linked user={user} />
        ) : (
          <NotLinked creator={isCreator(user)} />
        )}
      </Card>
    </div>
  );
}

function NotConfigured({ user }: { user: SelfUser }) {
  return (
    <>
      <p>Patreon linking is not configured on this site.</p>
      <p className={styles.note}>
        The site’s operator has not set up a Patreon client, so memberships cannot be linked here.
      </p>
      {user.memberships.length > 0 && <Memberships memberships={user.memberships} />}
    </>
  );
}

function NotLinked({ creator }: { creator: boolean }) {
  const start = useStartPatreonLink();
  const leaving = start.isPending || start.isSuccess;
  const link = (asCreator: boolean) =>
    start.mutate(asCreator, { onError: (err) => toast('error', 'Linking failed.', errorText(err)) });
  return (
    <>
      <p>No Patreon account is linked yet.</p>
      <p className={styles.note}>
        Link your Patreon account to unlock the files creators share with their supporters. We only read your
        name and your memberships.
      </p>
      <div className={styles.actions}>
        <button type="button" className="btn btn-primary" disabled={leaving} onClick={() => link(false)}>
          {leaving ? <Spinner size={16} /> : <Link2 size={16} aria-hidden />} Link Patreon
        </button>
        {creator && (
          <button type="button" className="btn btn-ghost" disabled={leaving} onClick={() => link(true)}>
            Link as a creator
          </button>
        )}
      </div>
      {creator && (
        <p className="muted">
          As a creator, link with your campaign to import its tiers and lock files to them.
        </p>
      )}
    </>
  );
}

function Linked({ user }: { user: SelfUser }) {
  const queryClient = useQueryClient();
  const refresh = useRefreshPatreon();
  const disconnect = useDisconnectPatreon();
  const importTiers = useImportPatreonTiers();
  const [confirming, setConfirming] = useState(false);

  const onRefresh = () =>
    refresh.mutate(undefined, {
      onSuccess: () => toast('success', 'Memberships refreshed.', undefined, 'short'),
      onError: (err) => {
        toast('error', 'Failed to refresh.', errorText(err));
        // The link may be gone (409): show what the server has now.
        void queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey });
      },
    });
  const onImport = () =>
    importTiers.mutate(undefined, {
      onSuccess: ({ creatorName, tiers }) =>
        toast('success', 'Tiers imported.', `${tiers.length} tiers of ${creatorName} can now lock files.`),
      onError: (err) => toast('error', 'Failed to import tiers.', errorText(err)),
    });
  const onDisconnect = () =>
    disconnect.mutate(undefined, {
      onSuccess: () => toast('success', 'Disconnected from Patreon'),
      onError: () => toast('error', 'Failed to disconnect.', 'Please try again.'),
      onSettled: () => setConfirming(false),
    });

  return (
    <>
      <p>
        Linked to Patreon
        {user.patreonName ? (
          <>
            {' '}
            as <strong>{user.patreonName}</strong>
          </>
        ) : null}
        .
      </p>
      {user.memberships.length === 0 ? (
        <p className="muted">No memberships found on this Patreon account.</p>
      ) : (
        <Memberships memberships={user.memberships} />
      )}
      <div className={styles.actions}>
        <button type="button" className="btn btn-ghost" onClick={onRefresh} disabled={refresh.isPending}>
          {refresh.isPending ? <Spinner size={16} /> : <RefreshCw size={16} aria-hidden />} Refresh
        </button>
        {isCreator(user) && (
          <button type="button" className="btn btn-ghost" onClick={onImport} disabled={importTiers.isPending}>
            {importTiers.isPending && <Spinner size={16} />} Import my tiers
          </button>
        )}
        <button type="button" className="btn btn-ghost" onClick={() => setConfirming(true)}>
          <Unlink size={16} aria-hidden /> Disconnect
        </button>
      </div>
      <ConfirmPopup
        open={confirming}
        title="Disconnect Patreon?"
        message="Your memberships are forgotten and the files they unlock lock again. You can link again at any time."
        confirmLabel="Disconnect"
        danger
        busy={disconnect.isPending}
        onConfirm={onDisconnect}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}

function Memberships({ memberships }: { memberships: SelfUser['memberships'] }) {
  return (
    <ul className={styles.memberships} aria-label="Memberships">
      {memberships.map((m) => (
        <li key={m.tierId}>
          <span>
            <strong>{m.creatorName}</strong> · {m.tierName}
          </span>
          <MembershipStatusTag membership={m} />
        </li>
      ))}
    </ul>
  );
}
