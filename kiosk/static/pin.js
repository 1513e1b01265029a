/* The PIN pages' keypad: the digits go into the field marked active (tap a field to choose it);
   ✓ moves on to the next empty field, or sends the form when every field is filled. */
(function () {
  'use strict';
  var form = document.getElementById('pin-form');
  if (!form) return;
  var fields = Array.prototype.slice.call(form.querySelectorAll('input.pin-field'));
  var active = fields[0];
  function choose(field) {
    active = field;
    fields.forEach(function (f) { f.classList.toggle('active', f === field); });
  }
  fields.forEach(function (f) { f.addEventListener('click', function () { choose(f); }); });
  choose(fields[0]);
  form.querySelectorAll('.keypad .key').forEach(function (b) {
    b.addEventListener('click', function () {
      var k = b.dataset.key;
      if (k === '⌫') active.value = active.value.slice(0, -1);
      else if (k === '✓') {
        var empty = fields.filter(function (f) { return !f.value; })[0];
        if (empty && active.value) choose(empty);
        else form.submit();
      } else if (active.value.length < 8) active.value += k;
    });
  });
})();
