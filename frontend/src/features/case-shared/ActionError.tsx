/** The server's (or the form's) message, shown next to the action it belongs to. */
export function ActionError({ message, id }: { message: string | undefined; id?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="form-error cd-action-error" role="alert">
      {message}
    </p>
  );
}
