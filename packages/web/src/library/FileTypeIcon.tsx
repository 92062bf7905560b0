import { fileTypeIconPath } from '@mesmer/shared/domain/file-types';
import type { CSSProperties } from 'react';
import styles from './library.module.css';

/**
 * A file type's icon (`images/{fileType}.svg`). The image is used as a mask over the text colour, so
 * it follows the theme and a pressed chip's colour like the other icons. Decorative unless `label`.
 */
export function FileTypeIcon({
  typeId,
  size = 16,
  label,
}: {
  typeId: number;
  size?: number;
  label?: string;
}) {
  const style = {
    '--type-icon': `url("${fileTypeIconPath(typeId)}")`,
    width: size,
    height: size,
  } as CSSProperties;
  return label ? (
    <span className={styles.typeIcon} style={style} role="img" aria-label={label} />
  ) : (
    <span className={styles.typeIcon} style={style} aria-hidden />
  );
}
