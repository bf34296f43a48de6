// Game Factory, the deck control (release 1.7): the server recounts the deck's label and
// variations on every refresh; this keeps typing safe while a refresh is on its way.

// Enter in the deck field recounts instead of saving the game (the form's first button).
document.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && event.target.id === "id_deck") {
    event.preventDefault();
    event.target.dispatchEvent(new Event("change", { bubbles: true }));
  }
});

// A refresh redraws the whole form: what was typed into the deck after the request left
// must not be undone by the answer. Put it back and ask again.
let sent = null;
let typed = null;
document.addEventListener("htmx:beforeRequest", () => {
  sent = document.getElementById("id_deck")?.value ?? null;
});
document.addEventListener("htmx:beforeSwap", () => {
  const now = document.getElementById("id_deck")?.value ?? null;
  typed = sent !== null && now !== null && now !== sent ? now : null;
});
document.addEventListener("htmx:afterSettle", () => {
  const input = document.getElementById("id_deck");
  if (typed === null || !input) return;
  input.value = typed;
  typed = null;
  input.focus();
  input.setSelectionRange(input.value.length, input.value.length);
  input.dispatchEvent(new Event("change", { bubbles: true }));
});
