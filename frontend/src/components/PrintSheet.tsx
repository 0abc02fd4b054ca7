import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * What gets printed: a copy of the QR sheet placed directly under <body>. It is hidden on screen,
 * and while it exists the print stylesheet hides everything else (styles.css, "QR print sheet").
 */
export function PrintSheet({ children }: { children: ReactNode }) {
  return createPortal(
    <div className="print-sheet" aria-hidden="true">
      {children}
    </div>,
    document.body,
  );
}
