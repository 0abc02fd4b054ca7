import { useCallback, useEffect, useRef, useState } from 'react';
import { PAYMENT_MS } from './texts';

const TICK_MS = 100;

/** The simulated mobile-wallet payment of spec section 9: 2.5 s with progress, then paid. */
export function usePayment(onPaid: () => void) {
  const [status, setStatus] = useState<'idle' | 'paying' | 'paid'>('idle');
  const [progress, setProgress] = useState(0);
  const timers = useRef<{ tick?: ReturnType<typeof setInterval>; done?: ReturnType<typeof setTimeout> }>({});
  const paidRef = useRef(onPaid);
  paidRef.current = onPaid;

  useEffect(() => {
    const current = timers.current;
    return () => {
      clearInterval(current.tick);
      clearTimeout(current.done);
    };
  }, []);

  const pay = useCallback(() => {
    if (timers.current.done !== undefined) return;
    setStatus('paying');
    setProgress(0);
    let ticks = 0;
    timers.current.tick = setInterval(() => {
      ticks += 1;
      setProgress(Math.min(99, Math.round(((ticks * TICK_MS) / PAYMENT_MS) * 100)));
    }, TICK_MS);
    timers.current.done = setTimeout(() => {
      clearInterval(timers.current.tick);
      setProgress(100);
      setStatus('paid');
      paidRef.current();
    }, PAYMENT_MS);
  }, []);

  return { status, progress, pay };
}
