// A 16x2 HD44780 character LCD behind a PCF8574 I2C port expander, as its I2C bus sees it: the
// expander's port drives RS (P0), RW (P1), E (P2), the backlight (P3) and D4-D7 (P4-P7); the LCD
// takes a nibble when E falls and keeps its 80 bytes of display RAM.
#pragma once

#include <stdint.h>

#include "sim_avr.h"

typedef struct lcd_t {
	avr_t *avr;
	avr_irq_t *twi_input;   // the AVR's TWI input: our ACKs and read bytes
	uint8_t address;        // 7-bit
	int addressed;
	uint8_t port;
	int eight_bit;          // the interface width the LCD believes in
	int half;               // a 4-bit byte's high nibble is in
	uint8_t high;
	uint8_t ddram[128];
	uint8_t cursor;
	int increment;
	int display_on;
	int to_cgram;
} lcd_t;

void lcd_init(lcd_t *l, avr_t *avr, uint8_t address);
// what the LCD shows: row 0 or 1, 16 characters and a NUL
void lcd_row(const lcd_t *l, int row, char *out);
int lcd_backlight(const lcd_t *l);
