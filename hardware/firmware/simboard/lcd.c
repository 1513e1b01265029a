// HD44780U instruction set (Hitachi data sheet, table 6) and interface width switching (figure 24);
// PCF8574 (NXP data sheet): one byte written sets the eight port pins, a read returns them.
#include "lcd.h"

#include <string.h>

#include "avr_twi.h"

#define RS 0x01
#define RW 0x02
#define EN 0x04
#define BACKLIGHT 0x08

static void instruction(lcd_t *l, uint8_t v)
{
	if (v & 0x80) {                 // set DDRAM address
		l->cursor = v & 0x7F;
		l->to_cgram = 0;
	} else if (v & 0x40) {          // set CGRAM address: data goes to the character generator
		l->to_cgram = 1;
	} else if (v & 0x20) {          // function set: DL is bit 4
		l->eight_bit = (v & 0x10) != 0;
		l->half = 0;
	} else if (v & 0x10) {          // cursor or display shift
		if (!(v & 0x08))
			l->cursor = (l->cursor + ((v & 0x04) ? 1 : 127)) & 0x7F;
	} else if (v & 0x08) {          // display on/off control
		l->display_on = (v & 0x04) != 0;
	} else if (v & 0x04) {          // entry mode set
		l->increment = (v & 0x02) != 0;
	} else if (v & 0x02) {          // return home
		l->cursor = 0;
	} else if (v & 0x01) {          // clear display
		memset(l->ddram, ' ', sizeof l->ddram);
		l->cursor = 0;
		l->increment = 1;
	}
}

static void data(lcd_t *l, uint8_t v)
{
	if (l->to_cgram)
		return;
	l->ddram[l->cursor] = v;
	// two lines: addresses 0x00-0x27 and 0x40-0x67, one running into the other
	uint8_t c = l->cursor;
	if (l->increment)
		c = c == 0x27 ? 0x40 : c == 0x67 ? 0x00 : c + 1;
	else
		c = c == 0x00 ? 0x67 : c == 0x40 ? 0x27 : c - 1;
	l->cursor = c;
}

// the port changed: a falling E latches D4-D7 (the port as it was while E was high)
static void port_write(lcd_t *l, uint8_t v)
{
	uint8_t was = l->port;
	l->port = v;
	if (!(was & EN) || (v & EN) || (was & RW))
		return;
	uint8_t nibble = was >> 4;
	int rs = was & RS;
	uint8_t value;
	if (l->eight_bit) {             // D0-D3 are not wired: read as 0
		value = nibble << 4;
	} else if (!l->half) {
		l->high = nibble;
		l->half = 1;
		return;
	} else {
		value = (l->high << 4) | nibble;
		l->half = 0;
	}
	if (rs)
		data(l, value);
	else
		instruction(l, value);
}

static void twi_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	lcd_t *l = param;
	avr_twi_msg_irq_t m;
	m.u.v = value;
	if (m.u.twi.msg & TWI_COND_STOP)
		l->addressed = 0;
	if (m.u.twi.msg & TWI_COND_START) {
		l->addressed = (m.u.twi.addr >> 1) == l->address;
		if (l->addressed)
			avr_raise_irq(l->twi_input, avr_twi_irq_msg(TWI_COND_ACK, m.u.twi.addr, 1));
	}
	if (!l->addressed)
		return;
	if (m.u.twi.msg & TWI_COND_WRITE) {
		avr_raise_irq(l->twi_input, avr_twi_irq_msg(TWI_COND_ACK, m.u.twi.addr, 1));
		port_write(l, m.u.twi.data);
	}
	if (m.u.twi.msg & TWI_COND_READ)
		avr_raise_irq(l->twi_input, avr_twi_irq_msg(TWI_COND_READ, m.u.twi.addr, l->port));
}

void lcd_init(lcd_t *l, avr_t *avr, uint8_t address)
{
	memset(l, 0, sizeof *l);
	l->avr = avr;
	l->address = address;
	l->eight_bit = 1;   // the power-on reset state (data sheet: "initializing by internal reset")
	l->increment = 1;
	l->port = 0xFF;     // the PCF8574's pins are high after power-on
	memset(l->ddram, ' ', sizeof l->ddram);
	l->twi_input = avr_io_getirq(avr, AVR_IOCTL_TWI_GETIRQ(0), TWI_IRQ_INPUT);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_TWI_GETIRQ(0), TWI_IRQ_OUTPUT),
			twi_hook, l);
}

void lcd_row(const lcd_t *l, int row, char *out)
{
	memcpy(out, l->ddram + (row ? 0x40 : 0x00), 16);
	for (int i = 0; i < 16; i++)
		if (out[i] < 0x20 || out[i] > 0x7E)
			out[i] = '?';
	out[16] = '\0';
}

int lcd_backlight(const lcd_t *l)
{
	return (l->port & BACKLIGHT) != 0;
}
