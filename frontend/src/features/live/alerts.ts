import { alertSoundsFor, type AlertKind, type LiveAlert, type User } from '@alignerflow/domain';

export type { AlertKind };

/** Vibration pattern of a foreground alert (spec section 9). */
export const VIBRATION_PATTERN = [300, 60, 300, 60, 700];
export const ALERT_TONE = { frequency: 880, seconds: 1, peakGain: 0.2 } as const;

/** The domain's sound rule (alertSoundsFor), never when the user turned the sound off. */
export function shouldAlert(kind: AlertKind, user: User, message: Partial<LiveAlert>): boolean {
  return user.activationSoundEnabled !== false && alertSoundsFor(kind, user, message.doctor);
}

let audio: AudioContext | null = null;

/** A 1 s sine at 880 Hz rising to a gain of 0.2 and fading out. */
export function playAlertTone(): void {
  try {
    const Context =
      window.AudioContext ??
      (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Context) return;
    audio ??= new Context();
    if (audio.state === 'suspended') void audio.resume();
    const now = audio.currentTime;
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.setValueAtTime(ALERT_TONE.frequency, now);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(ALERT_TONE.peakGain, now + 0.05);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + ALERT_TONE.seconds);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(now);
    oscillator.stop(now + ALERT_TONE.seconds);
  } catch (error) {
    console.warn('Could not play the alert tone', error);
  }
}

export function vibrate(): void {
  if (typeof navigator.vibrate === 'function') navigator.vibrate(VIBRATION_PATTERN);
}

/** A foreground alert: tone and vibration under the rules above. Returns whether it sounded. */
export function foregroundAlert(kind: AlertKind, user: User, message: Partial<LiveAlert>): boolean {
  if (!shouldAlert(kind, user, message)) return false;
  playAlertTone();
  vibrate();
  return true;
}
