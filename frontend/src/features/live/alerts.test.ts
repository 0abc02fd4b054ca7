import { describe, expect, it, vi } from 'vitest';
import { doctor, manager, technician } from '../../test/fixtures';
import { foregroundAlert, shouldAlert, VIBRATION_PATTERN } from './alerts';

describe('alert sounds (spec section 6)', () => {
  it('manager alert: Managers with sound not disabled', () => {
    expect(shouldAlert('manager_alert', manager, {})).toBe(true);
    expect(shouldAlert('manager_alert', { ...manager, activationSoundEnabled: false }, {})).toBe(false);
    expect(shouldAlert('manager_alert', technician, {})).toBe(false);
    expect(shouldAlert('manager_alert', doctor, {})).toBe(false);
  });

  it('doctor alert: Doctors, and only the named doctor when one is named', () => {
    expect(shouldAlert('doctor_alert', doctor, {})).toBe(true);
    expect(shouldAlert('doctor_alert', doctor, { doctor: 'DR.LEE' })).toBe(true);
    expect(shouldAlert('doctor_alert', doctor, { doctor: 'dr.patel' })).toBe(false);
    expect(shouldAlert('doctor_alert', { ...doctor, activationSoundEnabled: false }, {})).toBe(false);
    expect(shouldAlert('doctor_alert', manager, {})).toBe(false);
  });

  it('plays an 880 Hz sine peaking at 0.2 for 1 s and vibrates 300,60,300,60,700', () => {
    const frequency = { setValueAtTime: vi.fn() };
    const gain = { setValueAtTime: vi.fn(), exponentialRampToValueAtTime: vi.fn() };
    const oscillator = { type: '', frequency, connect: vi.fn(), start: vi.fn(), stop: vi.fn() };
    const gainNode = { gain, connect: vi.fn() };
    oscillator.connect.mockReturnValue(gainNode);
    class FakeAudioContext {
      state = 'running';
      currentTime = 0;
      destination = {};
      createOscillator = () => oscillator;
      createGain = () => gainNode;
      resume = vi.fn();
    }
    vi.stubGlobal('AudioContext', FakeAudioContext);
    const vibrate = vi.fn();
    Object.defineProperty(navigator, 'vibrate', { value: vibrate, configurable: true });

    expect(foregroundAlert('manager_alert', manager, {})).toBe(true);
    expect(oscillator.type).toBe('sine');
    expect(frequency.setValueAtTime).toHaveBeenCalledWith(880, 0);
    expect(gain.exponentialRampToValueAtTime).toHaveBeenCalledWith(0.2, expect.any(Number));
    expect(oscillator.stop).toHaveBeenCalledWith(1);
    expect(vibrate).toHaveBeenCalledWith(VIBRATION_PATTERN);
    expect(VIBRATION_PATTERN).toEqual([300, 60, 300, 60, 700]);

    vibrate.mockClear();
    expect(foregroundAlert('manager_alert', technician, {})).toBe(false);
    expect(vibrate).not.toHaveBeenCalled();
  });
});
