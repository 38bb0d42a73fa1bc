import { Component, type ReactNode } from 'react';
import { useLocation } from 'wouter';

export const pageErrorStrings = {
  heading: 'This page could not be loaded',
  /** A page's code (its own chunk) did not arrive: a new version was installed, or no server. */
  codeMissing:
    'The app may have been updated since you opened it, or the server could not be reached. Reload to load the current version. Records already saved are kept; anything typed on this page and not saved is not.',
  failed:
    'Something went wrong while showing this page. Reload to try again; if it happens again, tell your administrator what you did and this message:',
  reload: 'Reload',
  startPage: 'Go to the start page',
};

/** What browsers say when a dynamically imported module (a page's chunk) fails to load. */
const missingCode =
  /dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

interface BoundaryProps {
  children: ReactNode;
  /** The page's path: a new one clears the error (the pages stay mounted as they were). */
  location: string;
}

class Boundary extends Component<BoundaryProps, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidUpdate(previous: BoundaryProps) {
    if (this.state.error && previous.location !== this.props.location) {
      this.setState({ error: null });
    }
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const codeMissing = missingCode.test(error.message);
    return (
      <section className="page" role="alert">
        <h1>{pageErrorStrings.heading}</h1>
        <p>{codeMissing ? pageErrorStrings.codeMissing : pageErrorStrings.failed}</p>
        {!codeMissing && <p className="wrap-anywhere">{error.message}</p>}
        <p className="form-actions">
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => window.location.reload()}
          >
            {pageErrorStrings.reload}
          </button>
          <a className="btn btn-secondary" href="/">
            {pageErrorStrings.startPage}
          </a>
        </p>
      </section>
    );
  }
}

/**
 * The routed page, or what went wrong with it instead of a blank page: without a boundary, a
 * page whose code fails to load (after an update, or with the server down) unmounts the whole
 * app, toolbar included. A new path clears the error, so Back leaves the failed page; it is not a
 * key, which would mount every page again on each navigation (the start page's landing redirect).
 */
export function PageErrorBoundary({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  return <Boundary location={location}>{children}</Boundary>;
}
