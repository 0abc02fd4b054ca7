/** The line under a settings form: what a save did, announced politely, or an error, at once. */
export type Message = { kind: 'success' | 'error'; text: string } | null;

export function Feedback({ message }: { message: Message }) {
  if (!message) return null;
  return (
    <p
      className={message.kind === 'error' ? 'form-error' : 'form-success'}
      role={message.kind === 'error' ? 'alert' : 'status'}
    >
      {message.text}
    </p>
  );
}
