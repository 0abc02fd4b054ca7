import { useEffect, type RefObject } from 'react';
import { useFrame, useThree } from '@react-three/fiber';
import type { BufferGeometry, PerspectiveCamera } from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

interface StlSceneProps {
  geometry: BufferGeometry;
  controlsRef: RefObject<OrbitControls | null>;
}

/** The model, its lights and orbit controls (drag to orbit, wheel or pinch to zoom, right-drag to pan). */
export function StlScene({ geometry, controlsRef }: StlSceneProps) {
  const camera = useThree((state) => state.camera) as PerspectiveCamera;
  const element = useThree((state) => state.gl.domElement);
  const get = useThree((state) => state.get);
  const radius = geometry.boundingSphere?.radius || 1;

  useEffect(() => {
    // Frame the whole model in the narrower of the two fields of view (portrait phones too).
    const { width, height } = get().size;
    const vertical = (camera.fov * Math.PI) / 180;
    const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * (width / Math.max(height, 1)));
    const distance = (radius / Math.sin(Math.min(vertical, horizontal) / 2)) * 1.05;
    camera.near = radius / 100;
    camera.far = radius * 100;
    camera.position.set(0, distance * 0.36, distance * 0.93);
    camera.lookAt(0, 0, 0);
    camera.updateProjectionMatrix();
    const controls = new OrbitControls(camera, element);
    controls.enableDamping = true;
    controls.dampingFactor = 0.12;
    controls.minDistance = radius * 0.4;
    controls.maxDistance = radius * 20;
    controls.saveState();
    controlsRef.current = controls;
    return () => {
      controls.dispose();
      controlsRef.current = null;
    };
  }, [camera, element, get, radius, controlsRef]);

  useFrame(() => controlsRef.current?.update());

  return (
    <>
      <hemisphereLight args={['#ffffff', '#8a8f99', 1.4]} />
      <directionalLight position={[radius * 2, radius * 3, radius * 2]} intensity={1.6} />
      <directionalLight position={[-radius * 2, -radius, -radius * 2]} intensity={0.6} />
      <mesh geometry={geometry}>
        <meshStandardMaterial color="#eadfcf" roughness={0.5} metalness={0.05} />
      </mesh>
    </>
  );
}
