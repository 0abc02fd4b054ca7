import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useCaseFragment } from './useCaseFragment';

describe('useCaseFragment', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it("opens the case an email's link names and takes the fragment out of the address", () => {
    window.history.replaceState(null, '', '/portal/#case=CA-2025-123');
    const open = vi.fn();
    renderHook(() => useCaseFragment(open));
    expect(open).toHaveBeenCalledWith('CA-2025-123');
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/portal/');
  });

  it("opens the case of a push notification's ?case= link", () => {
    window.history.replaceState(null, '', '/?case=CA-2025-777&x=1');
    const open = vi.fn();
    renderHook(() => useCaseFragment(open));
    expect(open).toHaveBeenCalledWith('CA-2025-777');
    expect(window.location.search).toBe('?x=1');
  });

  it('follows a link opened while the app runs, and ignores other fragments', () => {
    const open = vi.fn();
    renderHook(() => useCaseFragment(open));
    act(() => {
      window.location.hash = '#scan';
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(open).not.toHaveBeenCalled();
    act(() => {
      window.location.hash = '#case=CA-2026-555';
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(open).toHaveBeenCalledWith('CA-2026-555');
  });
});
