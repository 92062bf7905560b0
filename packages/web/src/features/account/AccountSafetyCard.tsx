import type { ContentChoice } from '@mesmer/shared/api/account-data';
import { TEXT_LIMITS } from '@mesmer/shared/domain/limits';
import { accountDataRoutes } from '@mesmer/shared/routes/account-data';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  isSiteOwner,
  useChangePassword,
  useCurrentUser,
  useDeleteAccount,
  useLogoutEverywhere,
} from '../../api/auth.ts';
import { ApiError, call } from '../../lib/api-client.ts';
import { downloadText } from '../../lib/download.ts';
import {
  Card,
  ConfirmPopup,
  FormError,
  Modal,
  SectionHeader,
  Spinner,
  SubmitButton,
  toast,
} from '../../ui/index.ts';
import styles from './account.module.css';

const errorText = (err: unknown) =>
  err instanceof ApiError ? err.message : 'Something went wrong. Please try again.';

/**
 * The page is leaving for '/' (signed out everywhere, account deleted): the account page shows a
 * spinner meanwhile instead of its signed-out redirect to /login; `stay` when the request failed.
 */
interface Leaving {
  leave: () => void;
  stay: () => void;
}

/** Password, sessions and the account's data: change, sign out everywhere, download, delete. */
export function AccountSafetyCard(leaving: Leaving) {
  return (
    <Card>
      <SectionHeader title="Security and your data" />
      <ChangePassword />
      <Sessions {...leaving} />
      <YourData {...leaving} />
    </Card>
  );
}

function PasswordField({
  label,
  value,
  onChange,
  autoComplete,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        type="password"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete={autoComplete}
        maxLength={TEXT_LIMITS.password}
        required
      />
    </div>
  );
}

function ChangePassword() {
  const change = useChangePassword();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrent('');
          setNew('');
          toast('success', 'Password changed.', 'You stay signed in here; other devices are signed out.');
        },
      },
    );
  };
  return (
    <form className={styles.safetySection} onSubmit={submit} aria-labelledby="change-password">
      <h3 id="change-password" className={styles.safetyTitle}>
        Change password
      </h3>
      <PasswordField
        label="Current password"
        value={currentPassword}
        onChange={setCurrent}
        autoComplete="current-password"
      />
      <PasswordField label="New password" value={newPassword} onChange={setNew} autoComplete="new-password" />
      <FormError message={change.isError ? errorText(change.error) : null} />
      <SubmitButton pending={change.isPending} pendingLabel="Saving" className="btn-small">
        Change password
      </SubmitButton>
    </form>
  );
}

function Sessions({ leave, stay }: Leaving) {
  const everywhere = useLogoutEverywhere();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  return (
    <div className={styles.safetySection}>
      <h3 className={styles.safetyTitle}>Signed-in devices</h3>
      <p className="muted">Lost a phone or signed in on a shared computer? End every session at once.</p>
      <button type="button" className="btn btn-ghost btn-small" onClick={() => setAsking(true)}>
        Sign out everywhere
      </button>
      <ConfirmPopup
        open={asking}
        title="Sign out everywhere?"
        message="Every device signed in to your account, this one too, will be signed out."
        confirmLabel="Sign out everywhere"
        busy={everywhere.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          leave();
          everywhere.mutate(undefined, {
            onSuccess: () => {
              navigate('/');
              toast('success', 'Signed out everywhere.');
            },
            onError: () => {
              stay();
              setAsking(false);
              toast('error', 'Failed to sign out everywhere.', 'Please try again.');
            },
          });
        }}
      />
    </div>
  );
}

function YourData(leaving: Leaving) {
  const { user } = useCurrentUser();
  const [downloading, setDownloading] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      const data = await call(accountDataRoutes.export);
      downloadText(`mesmer-${data.profile.username}.json`, JSON.stringify(data, null, 2), 'application/json');
    } catch {
      toast('error', 'Failed to download your data.', 'Please try again.');
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className={styles.safetySection}>
      <h3 className={styles.safetyTitle}>Your data</h3>
      <p className="muted">
        Download everything we keep about you: profile, playlists, ratings, listening history, messages you
        sent and memberships.
      </p>
      <div className={styles.safetyActions}>
        <button type="button" className="btn btn-ghost btn-small" onClick={download} disabled={downloading}>
          {downloading && <Spinner size={14} label="Preparing" />}
          Download my data
        </button>
        {!isSiteOwner(user) && (
          <button type="button" className="btn btn-danger btn-small" onClick={() => setDeleting(true)}>
            Delete my account
          </button>
        )}
      </div>
      <DeleteAccountPopup open={deleting} onClose={() => setDeleting(false)} {...leaving} />
    </div>
  );
}

function DeleteAccountPopup({
  open,
  onClose,
  leave,
  stay,
}: { open: boolean; onClose: () => void } & Leaving) {
  const remove = useDeleteAccount();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [content, setContent] = useState<ContentChoice>('delete');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    leave();
    remove.mutate(
      { password, content },
      {
        onSuccess: () => {
          navigate('/');
          toast('success', 'Your account was deleted.');
        },
        onError: stay,
      },
    );
  };
  return (
    <Modal open={open} title="Delete your account" onClose={onClose}>
      <form className={styles.safetySection} onSubmit={submit}>
        <p>
          This cannot be undone. Your profile, ratings, progress, friends and sessions are removed; messages
          you sent stay in their threads as from a deleted user.
        </p>
        <fieldset className={styles.choice}>
          <legend>Your files and playlists</legend>
          <label>
            <input
              type="radio"
              name="content"
              checked={content === 'delete'}
              onChange={() => setContent('delete')}
            />
            Delete them
          </label>
          <label>
            <input
              type="radio"
              name="content"
              checked={content === 'transfer'}
              onChange={() => setContent('transfer')}
            />
            Hand them to the site as a former member’s, private until staff review them
          </label>
        </fieldset>
        <PasswordField
          label="Your password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
        />
        <FormError message={remove.isError ? errorText(remove.error) : null} />
        <div className={styles.safetyActions}>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-danger" disabled={remove.isPending || password === ''}>
            {remove.isPending && <Spinner size={16} label="Deleting" />}
            Delete my account
          </button>
        </div>
      </form>
    </Modal>
  );
}
