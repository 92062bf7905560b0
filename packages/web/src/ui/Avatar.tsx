import styles from './ui.module.css';

/** A user's picture, or the first letter of their name on an accent disc ('?' without a name). */
export function Avatar({
  name,
  imageURL,
  size = 40,
}: {
  name: string | null | undefined;
  imageURL?: string | null;
  size?: number;
}) {
  if (imageURL) {
    return <img className={styles.avatar} src={imageURL} alt="" width={size} height={size} />;
  }
  return (
    <span
      className={`${styles.avatar} ${styles.avatarPlaceholder}`}
      style={{ width: size, height: size, fontSize: size * 0.42 }}
      aria-hidden
    >
      {name?.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}
