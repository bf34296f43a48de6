// The tournament factory: show the sets in use and one more on "Add set"; "Delete set"
// clears a set and hides it. Without JavaScript every set shows and blank ones are ignored.
const form = document.querySelector("[data-testid=plan-form]");
if (form) {
  const sets = [...form.querySelectorAll(".plan-set")];
  const used = (set) =>
    [...set.querySelectorAll("input, select")].some((el) => el.value && el.value !== "0");
  const last = sets.reduce((n, set, i) => (used(set) ? i : n), 0);
  sets.forEach((set, i) => { set.hidden = i > last; });
  form.querySelector("#plan-add").addEventListener("click", () => {
    const next = sets.find((set) => set.hidden);
    if (next) next.hidden = false;
  });
  sets.forEach((set) => {
    set.querySelector(".plan-delete").addEventListener("click", () => {
      set.querySelectorAll("input, select").forEach((el) => { el.value = ""; });
      if (sets.filter((s) => !s.hidden).length > 1) set.hidden = true;
    });
  });
}
