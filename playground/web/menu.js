// A small popup menu (the quick-fix menu): keyboard and mouse, closes on Escape, on a
// choice, or on a click elsewhere.

const menu = () => document.getElementById('menu');

export function closeMenu() {
  menu().hidden = true;
  menu().replaceChildren();
}

export function openMenu(entries, { x, y }, note) {
  const root = menu();
  const buttons = entries.map((entry) => {
    const button = document.createElement('button');
    button.textContent = entry.label;
    button.addEventListener('click', () => {
      closeMenu();
      entry.run();
    });
    return button;
  });
  const header = [];
  if (note) {
    const div = document.createElement('div');
    div.className = 'empty';
    div.textContent = note;
    header.push(div);
  }
  root.replaceChildren(...header, ...buttons);
  root.style.left = `${Math.max(0, Math.min(x, window.innerWidth - 320))}px`;
  root.style.top = `${Math.max(0, Math.min(y, window.innerHeight - 40))}px`;
  root.hidden = false;
  buttons[0]?.focus();
}

document.addEventListener('keydown', (event) => {
  if (menu().hidden) return;
  const buttons = [...menu().querySelectorAll('button')];
  const at = buttons.indexOf(document.activeElement);
  if (event.key === 'Escape') {
    closeMenu();
  } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    const step = event.key === 'ArrowDown' ? 1 : -1;
    buttons[(at + step + buttons.length) % buttons.length]?.focus();
  } else {
    return;
  }
  event.preventDefault();
});

document.addEventListener('mousedown', (event) => {
  if (!menu().hidden && !menu().contains(event.target)) closeMenu();
});
