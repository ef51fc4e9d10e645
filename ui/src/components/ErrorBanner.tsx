// Inline page-level error message with optional Retry and Dismiss buttons.

type ErrorBannerProps = {
  message: string;
  onDismiss?: () => void;
  onRetry?: () => void;
};

export function ErrorBanner({ message, onDismiss, onRetry }: ErrorBannerProps) {
  return (
    <div className="error-banner" role="alert" data-testid="page-error">
      <span className="error-banner-text">{message}</span>
      {onRetry !== undefined && (
        <button type="button" className="button button-small" onClick={onRetry}>
          Retry
        </button>
      )}
      {onDismiss !== undefined && (
        <button type="button" className="button button-small" onClick={onDismiss}>
          Dismiss
        </button>
      )}
    </div>
  );
}
