import type { PublicUser } from '@mesmer/shared/api/users';
import { Check, Pencil } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Spinner, toast } from '../../ui/index.ts';
import { AvatarDrop } from './AvatarDrop.tsx';
import { useSaveBiography } from './api.ts';
import { BiographyEditor } from './BiographyEditor.tsx';
import { ProfileCard, type ProfileStat } from './ProfileCard.tsx';
import styles from './ProfileEditor.module.css';

/**
 * The viewer's own profile card: the edit icon toggles edit mode (picture drop zone and the
 * biography's markdown editor); leaving it saves the biography only when it changed, and the
 * icon waits while that save runs.
 */
export function OwnProfile({
  user,
  heading,
  avatarSize,
  stats,
  className,
  children,
}: {
  user: PublicUser;
  heading: 'h1' | 'h2';
  avatarSize: number;
  stats: readonly ProfileStat[];
  className?: string;
  children?: ReactNode;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(user.biography);
  const save = useSaveBiography();

  const toggle = () => {
    if (!editing) {
      setDraft(user.biography);
      setEditing(true);
      return;
    }
    if (draft === user.biography) {
      setEditing(false);
      return;
    }
    save.mutate(draft, {
      onSuccess: () => setEditing(false),
      onError: (err) => toast('error', 'Failed to save your profile.', err.message),
    });
  };

  return (
    <ProfileCard
      user={user}
      heading={heading}
      avatarSize={avatarSize}
      stats={stats}
      className={className}
      emptyBiography="Nothing here yet: click the edit icon to write about yourself. Markdown is supported."
      headAction={
        <button
          type="button"
          className={`icon-btn ${styles.editToggle}`}
          aria-label={editing ? 'Finish editing' : 'Edit profile'}
          aria-pressed={editing}
          title={editing ? 'Finish editing (saves)' : 'Edit profile'}
          disabled={save.isPending}
          onClick={toggle}
        >
          {save.isPending ? (
            <Spinner size={18} label="Saving" />
          ) : editing ? (
            <Check size={20} aria-hidden />
          ) : (
            <Pencil size={20} aria-hidden />
          )}
        </button>
      }
      biographyEditor={
        editing ? (
          <div className={styles.editor}>
            <AvatarDrop />
            <BiographyEditor value={draft} onChange={setDraft} />
          </div>
        ) : undefined
      }
    >
      {children}
    </ProfileCard>
  );
}
