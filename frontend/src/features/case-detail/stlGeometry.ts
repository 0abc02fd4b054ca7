import type { BufferGeometry } from 'three';
import { STLLoader } from 'three/addons/loaders/STLLoader.js';
import { CASE_DETAIL_TEXTS } from './texts';

/**
 * Parses an STL file (ASCII or binary) into a geometry ready to show: normals present, centred
 * on the origin, turned from the Z-up convention of dental scanners to three's Y-up, with its
 * bounding sphere computed (the viewer frames the camera on it).
 */
export function parseStl(data: ArrayBuffer | string): BufferGeometry {
  let geometry: BufferGeometry;
  try {
    geometry = new STLLoader().parse(data);
  } catch {
    throw new Error(CASE_DETAIL_TEXTS.stlUnreadable);
  }
  if (!geometry.getAttribute('position') || geometry.getAttribute('position').count === 0) {
    throw new Error(CASE_DETAIL_TEXTS.stlEmpty);
  }
  if (!geometry.getAttribute('normal')) geometry.computeVertexNormals();
  geometry.rotateX(-Math.PI / 2);
  geometry.center();
  geometry.computeBoundingSphere();
  return geometry;
}

/** Fetches a stored STL with the session cookie and parses it. */
export async function loadStl(url: string, signal?: AbortSignal): Promise<BufferGeometry> {
  const response = await fetch(url, { credentials: 'same-origin', signal });
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
  return parseStl(await response.arrayBuffer());
}

export function triangleCount(geometry: BufferGeometry): number {
  const index = geometry.getIndex();
  return Math.floor((index ? index.count : geometry.getAttribute('position').count) / 3);
}

/** Whether this browser can draw WebGL at all. */
export function hasWebgl(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return !!(canvas.getContext('webgl2') ?? canvas.getContext('webgl'));
  } catch {
    return false;
  }
}
