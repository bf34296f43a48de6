// The start form: show as many seats as the chosen game has, the username box only for
// seats set to "Invite a person…", and the crew box only for games with crews (nested
// boards). Without JavaScript every field shows; the server takes what it needs.
const form = document.querySelector("[data-testid=start-form]");
if (form) {
  const game = form.querySelector("select[name=game]");
  const update = () => {
    const chosen = game.selectedOptions[0];
    const seats = Number(chosen?.dataset.seats || 2);
    const crews = chosen?.dataset.crews === "1";
    form.querySelectorAll(".seat-field").forEach((field) => {
      field.hidden = Number(field.dataset.seat) > seats;
      const choice = field.querySelector(".seat-choice");
      field.querySelector(".invite-name").hidden = choice.value !== "invite";
      const crew = field.querySelector(".crew-field");
      crew.hidden = !crews && !crew.querySelector("input").value;
    });
  };
  form.addEventListener("change", update);
  update();
}
