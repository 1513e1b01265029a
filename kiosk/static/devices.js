/* The devices page: serial devices and their state, the deck registration, device messages. */
(function () {
  'use strict';
  var S = window.Stud, t = S.t, esc = S.esc;
  var lang = document.getElementById('devices-app').dataset.lang;
  var $ = function (id) { return document.getElementById(id); };

  /* the buttons' own display rule would win over the hidden attribute */
  function show(node, visible) {
    node.hidden = !visible;
    node.style.display = visible ? '' : 'none';
  }
  function kinds(list) {
    if (!list || !list.length) return t('devices.kind.unknown');
    return list.map(function (k) { return t('devices.kind.' + k); }).join(', ');
  }
  function detail(d) {
    var parts = [];
    if (d.error) parts.push(d.error);
    if (d.bad_lines) parts.push(t('devices.bad_lines', { count: d.bad_lines }));
    if (d.dropped_writes) parts.push(t('devices.dropped_writes', { count: d.dropped_writes }));
    return parts.join(' · ');
  }
  function render(data) {
    if (!data || data.ok === false) return;
    var rows = data.devices.map(function (d) {
      return '<tr class="device ' + esc(d.state) + '" data-port="' + esc(d.port) + '">' +
        '<td>' + esc(d.port) + '</td><td>' + esc(kinds(d.kinds)) + '</td>' +
        '<td class="state">' + esc(t('devices.state.' + d.state)) + '</td>' +
        '<td>' + esc(d.name || '') + '</td><td class="detail">' + esc(detail(d)) + '</td></tr>';
    });
    $('device-rows').innerHTML = rows.length ? rows.join('') :
      '<tr><td colspan="5">' + esc(t('devices.none')) + '</td></tr>';
    var available = (data.available || []).map(function (p) {
      return '<li>' + esc(p.by_id || p.device) + ' — ' + esc(p.description) + '</li>';
    });
    $('available').innerHTML = available.length ? available.join('') :
      '<li>' + esc(t('devices.available.none')) + '</li>';
    $('tags').textContent = data.tags ? t('devices.tags', { count: data.tags }) : t('devices.tags.none');
    var reg = data.registration;
    show($('registration'), !!reg);
    show($('register-cancel'), !!reg);
    show($('register'), !reg);
    if (reg && reg.expected) {
      $('registration').textContent = t('devices.register.prompt',
        { card: S.cardLabel(reg.expected), done: reg.done, total: reg.total });
    }
    if (data.notices) {
      $('notices').innerHTML = data.notices.slice().reverse().map(function (n) {
        return '<li>' + esc(n.messages[lang] || n.messages.en) + '</li>';
      }).join('');
    }
  }
  function toast(message) {
    var box = $('toast');
    box.textContent = message;
    box.hidden = false;
    setTimeout(function () { box.hidden = true; }, 6000);
  }
  var socket = S.live('dealer', lang, function () {}, function (on) {
    if (on) refresh();
  });
  function refresh() { socket.emit('devices', null, render); }
  socket.on('devices', refresh);
  socket.on('device_notice', function (n) {
    var li = document.createElement('li');
    li.textContent = n.message;
    $('notices').insertBefore(li, $('notices').firstChild);
  });
  function register(action) {
    socket.emit('devices_register', action, function (ack) {
      if (!ack || !ack.ok) toast((ack && ack.error) || '?');
      refresh();
    });
  }
  $('register').addEventListener('click', function () { register('start'); });
  $('register-cancel').addEventListener('click', function () { register('cancel'); });
})();
