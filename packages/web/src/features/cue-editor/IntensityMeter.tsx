import { useEffect, useRef } from 'react';
import styles from './cue-editor.module.css';

/**
 * What the toy would feel now, as a bar (0-20 like the device): shown while previewing, so a
 * creator without a connected toy still sees the cues play. Updated every frame from `level`
 * without re-rendering React.
 */
export function IntensityMeter({
  level,
  max,
  active,
}: {
  level: () => number;
  max: number;
  active: boolean;
}) {
  const bar = useRef<HTMLDivElement>(null);
  const meter = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const show = (value: number) => {
      if (bar.current) bar.current.style.transform = `scaleX(${value / max})`;
      meter.current?.setAttribute('aria-valuenow', String(value));
      meter.current?.setAttribute('aria-valuetext', value === 0 ? 'Off' : `Level ${value} of ${max}`);
    };
    if (!active) {
      show(0);
      return;
    }
    let id = 0;
    const loop = () => {
      show(level());
      id = requestAnimationFrame(loop);
    };
    id = requestAnimationFrame(loop);
    return () => cancelAnimationFrame(id);
  }, [active, level, max]);
  return (
    <div className={styles.meterBox}>
      <span className={styles.meterLabel} id="cue-meter-label">
        Intensity
      </span>
      {/* biome-ignore lint/a11y/useSemanticElements: a bar restyled every frame; <meter> cannot be styled alike across browsers */}
      <div
        ref={meter}
        className={styles.meter}
        role="meter"
        aria-labelledby="cue-meter-label"
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={0}
        data-testid="intensity-meter"
      >
        <div ref={bar} className={styles.meterBar} />
      </div>
    </div>
  );
}
