import { EXPERIENCE_LEVELS } from '@mesmer/shared/domain/library-display';

/** The four experience levels with the numbers the API counts them by, 1 to 4. */
export const EXPERIENCE_LEVEL_CHOICES = EXPERIENCE_LEVELS.map((label, i) => ({ id: i + 1, label }));

/** The experience levels as select options. */
export function ExperienceLevelOptions() {
  return EXPERIENCE_LEVEL_CHOICES.map((level) => (
    <option key={level.id} value={level.id}>
      {level.label}
    </option>
  ));
}
