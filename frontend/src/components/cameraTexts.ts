/** Texts of the camera that reads QR codes (the case scanner, the lot picker's scanner). */
export const CAMERA_TEXTS = {
  startingCamera: 'Starting camera…',
  cameraView: 'Camera view',

  // Spec section 8, "Camera".
  camera: {
    notSupported: 'Camera access is not supported by this browser.',
    denied:
      'Camera access was denied. Please enable camera permissions in your browser settings and refresh the page.',
    notFound: 'No camera found on this device. Please make sure a camera is connected.',
    inUse: 'The camera is currently in use by another application or a hardware error occurred.',
    generic: 'Could not access the camera. Please check permissions and try again.',
  },
} as const;
