import type { SelfUser } from '@mesmer/shared/api/users';
import { MAX_VIBRATION_RANGE, VIBRATION_OFFSET_RANGE } from '@mesmer/shared/domain/haptics-settings';
import { CircleHelp } from 'lucide-react';
import { type CSSProperties, type SyntheticEvent, useEffect, useId, useState } from 'react';
import { LOVENSE_PAIRING } from '../../lib/site.ts';
import {
  disconnectIntiface,
  type HapticsProvider,
  IntifacePanel,
  LovensePanel,
  loadHapticsProvider,
  saveHapticsProvider,
} from '../../library/toys/index.ts';
import { Modal } from '../../ui/index.ts';
import styles from './account.module.css';
import type { SettingsChange } from './api.ts';

const formatOffset = (ms: number) => `${ms > 0 ? '+' : ''}${ms} ms`;

/**
 * How the toy connects (Lovense Remote or Intiface Central, remembered in this browser) with that
 * connection's panel, then max vibration and vibration offset; each slider saves when released.
 * `lovenseAvailable`: whether the site has Lovense's API; without it only Intiface is offered and no
 * Lovense call is made (each would answer 503).
 */
export function HapticsSettings({
  settings,
  onChange,
  lovenseAvailable = LOVENSE_PAIRING,
}: {
  settings: SelfUser['lovenseSettings'];
  onChange: (change: SettingsChange) => void;
  lovenseAvailable?: boolean;
}) {
  const [helpOpen, setHelpOpen] = useState(false);
  const [chosen, setProvider] = useState<HapticsProvider>(loadHapticsProvider);
  const provider = lovenseAvailable ? chosen : 'intiface';
  const choose = (next: HapticsProvider) => {
    // One toy connection drives the player at a time.
    if (next !== 'intiface') disconnectIntiface();
    setProvider(next);
    saveHapticsProvider(next);
  };
  return (
    <>
      {lovenseAvailable ? (
        <fieldset className={styles.choice}>
          <legend>Connect your toy with</legend>
          <label>
            <input
              type="radio"
              name="hapticsProvider"
              checked={provider === 'lovense'}
              onChange={() => choose('lovense')}
            />
            Lovense Remote
          </label>
          <label>
            <input
              type="radio"
              name="hapticsProvider"
              checked={provider === 'intiface'}
              onChange={() => choose('intiface')}
            />
            Intiface Central (Buttplug: many brands)
          </label>
        </fieldset>
      ) : (
        <p className={`muted ${styles.small}`}>
          Lovense Remote is not set up on this site: connect your toy with Intiface Central (many brands).
        </p>
      )}
      {provider === 'intiface' ? <IntifacePanel /> : <LovensePanel />}
      <Slider
        label="Max vibration"
        description="The strongest a toy will ever vibrate."
        min={MAX_VIBRATION_RANGE.min}
        max={MAX_VIBRATION_RANGE.max}
        step={1}
        value={settings.maxVibration}
        format={(v) => `${v}%`}
        onCommit={(maxVibration) => onChange({ lovenseSettings: { maxVibration } })}
      />
      <Slider
        label="Vibration offset"
        description="Positive values send vibrations earlier to make up for your toy's delay; negative values later."
        min={VIBRATION_OFFSET_RANGE.min}
        max={VIBRATION_OFFSET_RANGE.max}
        step={VIBRATION_OFFSET_RANGE.step}
        value={settings.vibrationOffset}
        format={formatOffset}
        fillFrom={0}
        onCommit={(vibrationOffset) => onChange({ lovenseSettings: { vibrationOffset } })}
      />
      <button type="button" className="btn btn-ghost btn-small" onClick={() => setHelpOpen(true)}>
        <CircleHelp size={16} aria-hidden />
        How to connect a toy
      </button>
      <Modal open={helpOpen} title="How to connect a toy" onClose={() => setHelpOpen(false)}>
        {provider === 'intiface' ? <IntifaceSteps /> : <LovenseSteps />}
      </Modal>
    </>
  );
}

function LovenseSteps() {
  return (
    <ol className={styles.steps}>
      <li>
        <strong>Get the Lovense Remote app.</strong> Install it on your phone from the App Store or Google
        Play and pair your toy with it over Bluetooth.
      </li>
      <li>
        <strong>Enable the connection.</strong> Switch your toy on and keep Lovense Remote open, with the toy
        shown as connected.
      </li>
      <li>
        <strong>Scan the QR code.</strong> Press Connect toy on this page and scan the code it shows with the
        scan button in Lovense Remote.
      </li>
      <li>
        <strong>Done.</strong> Your toy shows as connected here. Play any file with haptics and the toy
        follows the session, within the limits you set above.
      </li>
    </ol>
  );
}

function IntifaceSteps() {
  return (
    <ol className={styles.steps}>
      <li>
        <strong>Get Intiface Central.</strong> Install it on this computer from intiface.com/central. It works
        with toys from many brands.
      </li>
      <li>
        <strong>Start its server.</strong> Open Intiface Central and press Start Server. Switch your toy on.
      </li>
      <li>
        <strong>Connect and scan.</strong> Press Connect on this page (the address is Intiface's default,
        ws://127.0.0.1:12345, unless you changed its port), then Scan for toys.
      </li>
      <li>
        <strong>Done.</strong> Your toy is listed here; Test makes it vibrate for a second. Play any file with
        haptics and the toy follows the session, within the limits you set above.
      </li>
    </ol>
  );
}

function Slider({
  label,
  description,
  min,
  max,
  step,
  value,
  format,
  fillFrom = min,
  onCommit,
}: {
  label: string;
  description: string;
  min: number;
  max: number;
  step: number;
  value: number;
  format: (value: number) => string;
  /** Where the coloured part of the track starts: the minimum, or 0 for a slider around zero. */
  fillFrom?: number;
  onCommit: (value: number) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const percent = (v: number) => `${((v - min) / (max - min)) * 100}%`;
  const fill = {
    '--fill-from': percent(Math.min(fillFrom, draft)),
    '--fill-to': percent(Math.max(fillFrom, draft)),
  } as CSSProperties;
  // Released with the pointer, or a key let go: save once, and only a real change.
  const commit = (e: SyntheticEvent<HTMLInputElement>) => {
    const next = Number(e.currentTarget.value);
    if (next !== value) onCommit(next);
  };
  return (
    <div className={styles.slider}>
      <div className={styles.sliderHead}>
        <label htmlFor={id}>{label}</label>
        <output htmlFor={id} className={styles.sliderValue}>
          {format(draft)}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={draft}
        style={fill}
        aria-valuetext={format(draft)}
        aria-describedby={`${id}-description`}
        onChange={(e) => setDraft(Number(e.target.value))}
        onPointerUp={commit}
        onKeyUp={commit}
      />
      <div className={styles.sliderScale} aria-hidden>
        <span>{format(min)}</span>
        <span>{format(max)}</span>
      </div>
      <p id={`${id}-description`} className={`muted ${styles.small}`}>
        {description}
      </p>
    </div>
  );
}
