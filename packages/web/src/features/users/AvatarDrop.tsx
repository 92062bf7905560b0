import { AVATAR_TOO_LARGE_MESSAGE, MAX_AVATAR_BYTES } from '@mesmer/shared/routes/users';
import { ImageUp } from 'lucide-react';
import { type DragEvent, useId, useState } from 'react';
import { Spinner, toast } from '../../ui/index.ts';
import { useUploadAvatar } from './api.ts';
import styles from './ProfileEditor.module.css';

const IMAGE_TYPES = 'image/png,image/jpeg,image/webp,image/gif';
/** The spec's words when more than one file is dropped or chosen. */
export const ONE_FILE_MESSAGE = 'Only one file can be uploaded at a time.';

/** Drop one image here (or choose it) to make it the profile picture; it uploads at once. */
export function AvatarDrop() {
  const inputId = useId();
  const upload = useUploadAvatar();
  const [over, setOver] = useState(false);

  const send = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    if (files.length > 1) {
      toast('error', ONE_FILE_MESSAGE);
      return;
    }
    const file = files[0];
    if (file.size > MAX_AVATAR_BYTES) {
      toast('error', AVATAR_TOO_LARGE_MESSAGE);
      return;
    }
    upload.mutate(file, {
      onSuccess: () => toast('success', 'Profile picture updated.'),
      onError: (err) => toast('error', 'Failed to upload the image.', err.message),
    });
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    send(e.dataTransfer.files);
  };

  return (
    <label
      htmlFor={inputId}
      className={over ? `${styles.drop} ${styles.dropOver}` : styles.drop}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      {upload.isPending ? <Spinner size={20} label="Uploading" /> : <ImageUp size={20} aria-hidden />}
      <span>Drop a profile picture here or click to choose one (PNG, JPEG, WebP or GIF, up to 5 MB)</span>
      <input
        id={inputId}
        type="file"
        accept={IMAGE_TYPES}
        className="visually-hidden"
        aria-label="Profile picture"
        disabled={upload.isPending}
        onChange={(e) => {
          send(e.target.files);
          e.target.value = '';
        }}
      />
    </label>
  );
}
