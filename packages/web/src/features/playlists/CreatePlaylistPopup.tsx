import { TEXT_LIMITS } from '@mesmer/shared/domain/limits';
import { type FormEvent, useId, useState } from 'react';
import { isSiteOwner, useCurrentUser } from '../../api/auth.ts';
import { ExperienceLevelOptions } from '../../library/ExperienceLevels.tsx';
import styles from '../../library/library.module.css';
import { FormError, focusOnMount, Modal, SubmitButton, Switch, Textarea, toast } from '../../ui/index.ts';
import { useCreatePlaylist } from './api.ts';

/** The Create Playlist popup. Its form starts empty every time it opens. */
export function CreatePlaylistPopup({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} title="Create Playlist" onClose={onClose} width={480}>
      <CreatePlaylistForm onDone={onClose} />
    </Modal>
  );
}

type Field = 'name' | 'expLevel';

function CreatePlaylistForm({ onDone }: { onDone: () => void }) {
  const { user } = useCurrentUser();
  const create = useCreatePlaylist();
  const ids = { name: useId(), description: useId(), level: useId() };
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  // '' is the 'Experience Level...' placeholder, which is not a valid choice.
  const [level, setLevel] = useState('');
  const [isCore, setIsCore] = useState(false);
  const [invalid, setInvalid] = useState<Set<Field>>(new Set());
  const [serverError, setServerError] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const errors = new Set<Field>();
    if (!name.trim()) errors.add('name');
    if (!level) errors.add('expLevel');
    setInvalid(errors);
    setServerError(null);
    if (errors.size > 0) return;
    create.mutate(
      { name: name.trim(), description, expLevel: Number(level), isCore: isSiteOwner(user) && isCore },
      {
        onSuccess: () => {
          toast('success', 'Playlist created!');
          onDone();
        },
        onError: (err) => setServerError(err.message),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <FormError message={invalid.size > 0 ? 'Please fill out all highlighted fields.' : null} />
      <FormError message={serverError} />
      <div className="field">
        <label htmlFor={ids.name}>Name</label>
        <input
          id={ids.name}
          className="input"
          value={name}
          maxLength={TEXT_LIMITS.playlistName}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={invalid.has('name')}
          ref={focusOnMount}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.description}>
          Description <span className="muted">(optional)</span>
        </label>
        <Textarea
          id={ids.description}
          value={description}
          maxLength={TEXT_LIMITS.description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.level}>Experience level</label>
        <select
          id={ids.level}
          className="select"
          value={level}
          onChange={(e) => setLevel(e.target.value)}
          aria-invalid={invalid.has('expLevel')}
        >
          <option value="">Experience Level...</option>
          <ExperienceLevelOptions />
        </select>
      </div>
      {isSiteOwner(user) && <Switch label="Core playlist" checked={isCore} onChange={setIsCore} />}
      <div className={styles.formActions}>
        <SubmitButton pending={create.isPending} pendingLabel="Saving">
          Create
        </SubmitButton>
      </div>
    </form>
  );
}
