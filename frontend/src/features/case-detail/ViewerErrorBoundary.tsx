import { Component, type ReactNode } from 'react';

interface ViewerErrorBoundaryProps {
  fallback: ReactNode;
  children: ReactNode;
}

/** Keeps a failing viewer (no WebGL, a lost context) from taking the case screen down with it. */
export class ViewerErrorBoundary extends Component<ViewerErrorBoundaryProps, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error('3D viewer failed', error);
  }

  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
