/* On-screen keys for a kiosk with no keyboard. A field marked data-keys="number" opens a keypad,
   one marked data-keys="text" a keyboard (simple-keyboard, vendored) with the names used before
   above it (the page lists them in #known-names). The keys write into the field as a keyboard
   would; OK closes them. A keyboard plugged in still types into the fields as usual. */
(function () {
  'use strict';
  var messages = JSON.parse((document.getElementById('messages') || { textContent: '{}' }).textContent);
  var t = function (key) { return messages[key] || key; };
  var known = JSON.parse((document.getElementById('known-names') || { textContent: '[]' }).textContent);
  var sheet = null, target = null, fresh = false, board = null;

  var LAYOUT = {
    default: ['1 2 3 4 5 6 7 8 9 0 {bksp}', 'q w e r t y u i o p è', 'a s d f g h j k l ò à',
      '{shift} z x c v b n m ù ì \' -', '{space} {enter}'],
    shift: ['1 2 3 4 5 6 7 8 9 0 {bksp}', 'Q W E R T Y U I O P É', 'A S D F G H J K L Ò À',
      '{shift} Z X C V B N M Ù Ì . -', '{space} {enter}']
  };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function build() {
    sheet = el('div', 'keys-sheet');
    sheet.id = 'keys-sheet';
    sheet.hidden = true;
    sheet.setAttribute('role', 'dialog');
    sheet.setAttribute('data-testid', 'keys');
    var head = el('div', 'keys-head');
    head.appendChild(el('span', 'keys-title'));
    var value = el('output', 'keys-value');
    value.setAttribute('data-testid', 'keys-value');
    head.appendChild(value);
    var ok = el('button', 'btn btn-primary keys-ok', t('keys.ok'));
    ok.type = 'button';
    ok.setAttribute('data-testid', 'keys-ok');
    ok.addEventListener('click', close);
    head.appendChild(ok);
    sheet.appendChild(head);
    var names = el('div', 'keys-names');
    names.setAttribute('data-testid', 'keys-names');
    sheet.appendChild(names);
    var pad = el('div', 'keys-pad keypad');
    ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'C', '0', '⌫'].forEach(function (k) {
      var b = el('button', 'btn key', k);
      b.type = 'button';
      b.dataset.key = k;
      b.setAttribute('aria-label', k === '⌫' ? t('keys.backspace') : k === 'C' ? t('keys.clear') : k);
      b.addEventListener('click', function () { digit(k); });
      pad.appendChild(b);
    });
    sheet.appendChild(pad);
    var kb = el('div', 'simple-keyboard');
    kb.setAttribute('data-testid', 'keys-board');
    sheet.appendChild(kb);
    document.body.appendChild(sheet);
    board = new window.SimpleKeyboard.default(kb, {
      layout: LAYOUT,
      display: { '{bksp}': '⌫', '{enter}': t('keys.ok'), '{shift}': '⇧', '{space}': ' ' },
      mergeDisplay: true,
      maxLength: 24,
      preventMouseDownDefault: true,
      onChange: function (text) { write(text); },
      onKeyPress: function (button) {
        if (button === '{shift}') {
          board.setOptions({ layoutName: board.options.layoutName === 'shift' ? 'default' : 'shift' });
        } else if (button === '{enter}') close();
        else if (board.options.layoutName === 'shift' && button.length === 1) {
          board.setOptions({ layoutName: 'default' });  /* one capital, as a phone does */
        }
      }
    });
  }

  function write(text) {
    target.value = text;
    sheet.querySelector('.keys-value').textContent = text;
    target.dispatchEvent(new Event('input', { bubbles: true }));
  }
  /* a field marked data-keys="money" has a decimal comma where the others have C */
  function money() { return target && target.dataset.keys === 'money'; }
  function digit(k) {
    var value = fresh ? '' : target.value;
    fresh = false;
    if (k === '⌫') value = value.slice(0, -1);
    else if (k === 'C' && money()) { if (value.indexOf(',') < 0) value = (value || '0') + ','; }
    else if (k === 'C') value = '';
    else if (value.length < 9) value = (value === '0' ? '' : value) + k;
    write(value);
  }
  function labelOf(input) {
    var label = input.closest('label');
    if (label) return label.firstChild.textContent.trim();
    return input.getAttribute('aria-label') || input.placeholder || '';
  }
  function open(input) {
    if (!sheet) build();
    if (target && target !== input) target.classList.remove('keys-target');
    target = input;
    var text = input.dataset.keys === 'text';
    input.classList.add('keys-target');
    sheet.querySelector('.keys-title').textContent = labelOf(input);
    sheet.querySelector('.keys-value').textContent = input.value;
    sheet.querySelector('.keys-pad').hidden = text;
    var clear = sheet.querySelector('.keys-pad [data-key="C"]');
    clear.textContent = money() ? ',' : 'C';
    clear.setAttribute('aria-label', money() ? ',' : t('keys.clear'));
    sheet.querySelector('.simple-keyboard').hidden = !text;
    var names = sheet.querySelector('.keys-names');
    names.innerHTML = '';
    names.hidden = !text || !known.length;
    if (text) {
      board.setOptions({ layoutName: input.value ? 'default' : 'shift' });
      board.setInput(input.value);
      var taken = {};
      /* the names of the other players sitting at the table are not offered */
      document.querySelectorAll('input[data-keys="text"]').forEach(function (f) {
        var row = f.closest('tr'), playing = row && row.querySelector('input[type="checkbox"]');
        if (f !== input && f.value && (!playing || playing.checked)) taken[f.value] = true;
      });
      known.forEach(function (name) {
        if (taken[name]) return;
        var b = el('button', 'btn name', name);
        b.type = 'button';
        b.setAttribute('data-testid', 'known-name');
        b.addEventListener('click', function () { board.setInput(name); write(name); close(); });
        names.appendChild(b);
      });
    }
    fresh = !text;  /* the first digit replaces the number shown, as in a calculator */
    sheet.hidden = false;
    document.body.classList.add('keys-open');
    input.scrollIntoView({ block: 'start' });
  }
  function close() {
    if (!sheet) return;
    sheet.hidden = true;
    document.body.classList.remove('keys-open');
    if (target) {
      target.classList.remove('keys-target');
      target.dispatchEvent(new Event('change', { bubbles: true }));
    }
    target = null;
  }
  document.addEventListener('click', function (ev) {
    var input = ev.target.closest('input[data-keys]');
    if (input && !input.disabled) open(input);
    /* a tap elsewhere closes the keys (a key the keyboard redrew under the finger is no longer
       in the page: that tap was on the keys) */
    else if (sheet && !sheet.hidden && ev.target.isConnected && !sheet.contains(ev.target)) close();
  });
  window.StudKeys = { open: open, close: close };
})();
