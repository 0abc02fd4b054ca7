import { useEffect, useRef, useState } from 'react';
import { Canvas } from '@react-three/fiber';
import type { BufferGeometry } from 'three';
import type { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { Icon } from '../../components/Icon';
import { hasWebgl, loadStl, triangleCount } from './stlGeometry';
import { StlScene } from './StlScene';
import { CASE_DETAIL_TEXTS as T } from './texts';
import { ViewerErrorBoundary } from './ViewerErrorBoundary';

type Loaded =
  | { status: 'loading' }
  | { status: 'ready'; geometry: BufferGeometry }
  | { status: 'failed'; reason: string };

const ZOOM_STEP = 0.8;

/**
 * The in-browser 3D review of an STL file (react-three-fiber + three's STLLoader and
 * OrbitControls). Loaded lazily: three.js is in its own chunk, fetched when a model is opened.
 */
export default function StlViewer({ url, name }: { url: string; name: string }) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const controlsRef = useRef<OrbitControls | null>(null);
  const [webgl] = useState(hasWebgl);

  useEffect(() => {
    const abort = new AbortController();
    setLoaded({ status: 'loading' });
    loadStl(url, abort.signal).then(
      (geometry) => setLoaded({ status: 'ready', geometry }),
      (error: unknown) => {
        if (!abort.signal.aborted) {
          setLoaded({ status: 'failed', reason: error instanceof Error ? error.message : String(error) });
        }
      },
    );
    return () => abort.abort();
  }, [url]);

  useEffect(() => {
    if (loaded.status === 'ready') return () => loaded.geometry.dispose();
  }, [loaded]);

  const unavailable = (
    <p className="form-error" role="alert">
      {T.stlNoWebgl}
    </p>
  );
  if (!webgl) return unavailable;
  if (loaded.status === 'loading') {
    return (
      <p className="cd-stl__status" role="status">
        <span className="spinner cd-spinner" aria-hidden="true" />
        {T.stlLoading}
      </p>
    );
  }
  if (loaded.status === 'failed') {
    return (
      <div role="alert">
        <p className="text-danger">{T.stlFailed}</p>
        <p className="small">{loaded.reason}</p>
      </div>
    );
  }

  const act = (action: (controls: OrbitControls) => void) => () => {
    if (controlsRef.current) action(controlsRef.current);
  };
  return (
    <div className="cd-stl">
      <div className="cd-stl__toolbar">
        <span className="muted small">{T.triangles(triangleCount(loaded.geometry))}</span>
        <div className="button-row">
          <button
            type="button"
            className="icon-button"
            aria-label={T.zoomIn}
            title={T.zoomIn}
            onClick={act((c) => c.dollyIn(ZOOM_STEP))}
          >
            <Icon name="plus" />
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={T.zoomOut}
            title={T.zoomOut}
            onClick={act((c) => c.dollyOut(ZOOM_STEP))}
          >
            <svg
              className="icon"
              width={18}
              height={18}
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth={2}
              strokeLinecap="round"
              aria-hidden="true"
              focusable="false"
            >
              <path d="M5 12h14" />
            </svg>
          </button>
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={act((c) => c.reset())}
          >
            {T.resetView}
          </button>
        </div>
      </div>
      <div className="cd-stl__canvas" role="img" aria-label={T.stlCanvas(name)}>
        <ViewerErrorBoundary fallback={unavailable}>
          <Canvas camera={{ fov: 40 }} dpr={[1, 2]} gl={{ antialias: true }}>
            <StlScene geometry={loaded.geometry} controlsRef={controlsRef} />
          </Canvas>
        </ViewerErrorBoundary>
      </div>
      <p className="hint">{T.stlHint}</p>
    </div>
  );
}
