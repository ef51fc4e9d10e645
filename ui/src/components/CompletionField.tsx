// A text field whose value the server completes as it is typed (a prompt's argument or a
// resource template's variable): the suggestions (`useCompletion`, debounced) in a listbox
// under the field, as an ARIA combobox. Arrow keys move through them, Enter or a click takes
// one, Escape closes them; anything may still be typed.

import { useId, useState } from "react";
import { type CompletionTarget, useCompletion } from "../hooks/useCompletion";

type CompletionFieldProps = {
  label: string;
  description?: string | null;
  required?: boolean;
  value: string;
  onChange: (value: string) => void;
  target: CompletionTarget;
  /** The other arguments already filled in, which may narrow the suggestions. */
  context: Record<string, string>;
  /** Whether the server completes (its `completions` capability). */
  completes: boolean;
};

export function CompletionField({
  label,
  description,
  required = false,
  value,
  onChange,
  target,
  context,
  completes,
}: CompletionFieldProps) {
  const id = useId();
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const [active, setActive] = useState(-1);
  const suggestions = useCompletion(target, value, context, completes && focused);
  const open = focused && !dismissed && suggestions.length > 0;
  const listId = `${id}-suggestions`;
  const choose = (suggestion: string) => {
    onChange(suggestion);
    setActive(-1);
    setDismissed(true);
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" && suggestions.length > 0) {
      event.preventDefault();
      setDismissed(false);
      setActive((a) => (a + 1) % suggestions.length);
    } else if (event.key === "ArrowUp" && suggestions.length > 0) {
      event.preventDefault();
      setDismissed(false);
      setActive((a) => (a <= 0 ? suggestions.length - 1 : a - 1));
    } else if (event.key === "Enter" && open && active >= 0 && active < suggestions.length) {
      event.preventDefault();
      choose(suggestions[active]!);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      setDismissed(true);
    }
  };
  return (
    <div className="field completion-field">
      <label htmlFor={id} className="field-label">
        {label}
        {required ? (
          <span className="required-mark" title="required" aria-hidden="true">
            {" *"}
          </span>
        ) : (
          <span className="field-optional"> (optional)</span>
        )}
      </label>
      <input
        id={id}
        className="input"
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        aria-required={required}
        aria-describedby={description ? `${id}-hint` : undefined}
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(event) => {
          onChange(event.target.value);
          setDismissed(false);
          setActive(-1);
        }}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onKeyDown={onKeyDown}
      />
      {description ? (
        <p id={`${id}-hint`} className="field-hint">
          {description}
        </p>
      ) : null}
      <ul id={listId} role="listbox" aria-label={`Suggestions for ${label}`} className="completion-list" hidden={!open}>
        {open &&
          suggestions.map((suggestion, index) => (
            <li
              key={suggestion}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className={index === active ? "completion-option completion-option-active" : "completion-option"}
              onMouseDown={(event) => {
                // Keeps the focus in the field, so the choice is not lost to its blur.
                event.preventDefault();
                choose(suggestion);
              }}
            >
              {suggestion}
            </li>
          ))}
      </ul>
    </div>
  );
}
