import type { PublicUser } from '@mesmer/shared/api/users';
import { Check, Pencil } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Spinner, Tooltip, toast } from '../../ui/index.ts';
import { AvatarDrop } from './AvatarDrop.tsx';
import { useSaveProfile } from './api.ts';
import { BiographyEditor } from './BiographyEditor.tsx';
import { ProfileCard, type ProfileStat } from './ProfileCard.tsx';
import styles from './ProfileEditor.module.css';
import { type TriggerChoice, TriggerSelection } from './TriggerSelection.tsx';

const choiceOf = (user: PublicUser): TriggerChoice =>
  new Map(user.triggers.map((t) => [t.id, t.trainingAmount === 0 ? 0 : 1]));
const sameChoice = (a: TriggerChoice, b: TriggerChoice) =>
  a.size === b.size && [...a].every(([id, amount]) => b.get(id) === amount);

/**
 * The viewer's own profile card: the edit icon toggles edit mode (picture drop zone and the
 * biography's markdown editor, trained and in-training triggers); leaving it saves only what changed, and the
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
  const [choice, setChoice] = useState<TriggerChoice>(() => choiceOf(user));
  const save = useSaveProfile();

  const toggle = () => {
    if (!editing) {
      setDraft(user.biography);
      setChoice(choiceOf(user));
      setEditing(true);
      return;
    }
    const change: Parameters<typeof save.mutate>[0] = {};
    if (draft !== user.biography) change.biography = draft;
    if (!sameChoice(choice, choiceOf(user))) {
      change.triggers = [...choice].map(([triggerId, trainingAmount]) => ({ triggerId, trainingAmount }));
    }
    if (Object.keys(change).length === 0) {
      setEditing(false);
      return;
    }
    save.mutate(change, {
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
        <Tooltip content={editing ? 'Finish editing (saves)' : 'Edit profile'}>
          <button
            type="button"
            className={`icon-btn ${styles.editToggle}`}
            aria-label={editing ? 'Finish editing' : 'Edit profile'}
            aria-pressed={editing}
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
        </Tooltip>
      }
      biographyEditor={
        editing ? (
          <div className={styles.editor}>
            <AvatarDrop />
            <BiographyEditor value={draft} onChange={setDraft} />
            <TriggerSelection value={choice} known={user.triggers} onChange={setChoice} />
          </div>
        ) : undefined
      }
    >
      {children}
    </ProfileCard>
  );
}
