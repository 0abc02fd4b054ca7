import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { whenIdle } from '../../api/idle';

/** Lists up to this long render whole (a small lab keeps find-in-page over every row). */
export const WINDOW_FROM = 100;
/**
 * Rows kept rendered above and below the viewport, so scrolling and Tab never meet a gap. The
 * first frame goes without them (two thirds of its rows were below the fold, work its paint need
 * not wait for); they follow once the page is idle.
 */
const OVERSCAN_PX = 1000;

export interface RowWindow<T extends HTMLElement> {
  containerRef: RefObject<T | null>;
  /** The rows to render: `start` to `end` (exclusive). */
  start: number;
  end: number;
  /** Heights (px) of the spacers standing in for the rows not rendered. */
  before: number;
  after: number;
  windowed: boolean;
}

/**
 * Renders only the rows of a long list that are near the viewport: with thousands of cases,
 * building every row costs far more than the 300 ms a dashboard may take. Spacers keep the
 * page's scroll height, so it scrolls as if every row were there. Rows are taken to be of one
 * pitch, measured from the first two rendered ones (elements marked `data-row`).
 */
export function useRowWindow<T extends HTMLElement>(count: number, estimatedRowPx: number): RowWindow<T> {
  const containerRef = useRef<T>(null);
  const [rowPx, setRowPx] = useState(estimatedRowPx);
  const windowed = count > WINDOW_FROM;
  const [overscanPx, setOverscanPx] = useState(0);
  // Before the list is laid out its place on the page is unknown: at most a viewport of rows shows.
  const [range, setRange] = useState(() => ({
    start: 0,
    end: Math.ceil(window.innerHeight / estimatedRowPx),
  }));

  const update = useCallback(() => {
    const container = containerRef.current;
    if (!container || !windowed) return;
    const top = container.getBoundingClientRect().top;
    const start = Math.min(count, Math.max(0, Math.floor((-top - overscanPx) / rowPx)));
    const end = Math.min(count, Math.max(start, Math.ceil((window.innerHeight - top + overscanPx) / rowPx)));
    setRange((current) => (current.start === start && current.end === end ? current : { start, end }));
  }, [count, rowPx, windowed, overscanPx]);

  useEffect(() => {
    if (windowed && overscanPx === 0) return whenIdle(() => setOverscanPx(OVERSCAN_PX));
  }, [windowed, overscanPx]);

  useLayoutEffect(() => {
    const rows = containerRef.current?.querySelectorAll<HTMLElement>('[data-row]');
    if (rows && rows.length >= 2) {
      const pitch = rows[1].offsetTop - rows[0].offsetTop;
      if (pitch > 0 && Math.abs(pitch - rowPx) >= 1) setRowPx(pitch);
    }
    update();
  });

  useLayoutEffect(() => {
    if (!windowed) return;
    let frame = 0;
    const onScroll = () => {
      if (!frame)
        frame = requestAnimationFrame(() => {
          frame = 0;
          update();
        });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
    };
  }, [update, windowed]);

  if (!windowed) return { containerRef, start: 0, end: count, before: 0, after: 0, windowed };
  const start = Math.min(range.start, count);
  const end = Math.min(Math.max(range.end, start), count);
  return { containerRef, start, end, before: start * rowPx, after: (count - end) * rowPx, windowed };
}
