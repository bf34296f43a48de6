// The start form: show as many seats as the chosen game has, and the username box only
// for seats set to "Invite a person…". Without JavaScript every seat shows; the server
// takes the first ones it needs.
const form = document.querySelector("[data-testid=start-form]");
if (form) {
  const game = form.querySelector("select[name=game]");
  const update = () => {
    const chosen = game.selectedOptions[0];
    const seats = Number(chosen?.dataset.seats || 2);
    form.querySelectorAll(".seat-field").forEach((field) => {
      field.hidden = Number(field.dataset.seat) > seats;
      const choice = field.querySelector(".seat-choice");
      field.querySelector(".invite-name").hidden = choice.value !== "invite";
    });
  };
  form.addEventListener("change", update);
  update();
}
