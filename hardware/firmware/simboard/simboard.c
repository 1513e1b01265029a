// The table board of docs/hardware.md in simavr: an ATmega328P at 16 MHz running the firmware's
// ELF, wired as the docs wire it (RC522 readers, two button ladders, the I2C LCD, seat LEDs), its
// serial port bridged to a pseudo-terminal that the kiosk opens as it opens a USB board.
//
//   simboard FIRMWARE.elf [--no-reader SEAT]... [--no-lcd]
//
// It prints "pty PATH" and then serves commands on standard input, one per line, each answered
// with one line ("ok", "error ...", or the state):
//   put SEAT UID      lay a card (its tag's uid in hex, 4, 7 or 10 bytes) on the seat's reader
//   lift SEAT         take every card off the seat's reader
//   press NAME MS     hold the button NAME down for MS milliseconds of board time
//   state             {"ms": .., "lcd": [row 0, row 1], "backlight": 0|1, "leds": [..]}
//                     each LED "on", "off" or "blink" (changed twice in the last second)
//   quit
// The simulation runs in step with the clock on the wall (never ahead of it), so the firmware's
// timing (debouncing, the readers' timeouts, the serial line at 115200 baud) is the board's own.
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "avr_adc.h"
#include "avr_ioport.h"
#include "avr_spi.h"
#include "avr_uart.h"
#include "lcd.h"
#include "rc522.h"
#include "sim_avr.h"
#include "sim_elf.h"

// ---- the wiring: docs/hardware.md, and the configuration block of stud_table.ino --------------

typedef struct pin_t { char port; int bit; } pin_t;  // Uno: D0-7 PD, D8-13 PB, A0-5 PC

#define READERS 4
static const pin_t READER_SS[READERS] = {{'B', 2}, {'B', 1}, {'B', 0}, {'D', 7}};  // D10 D9 D8 D7
static const pin_t READER_RST = {'D', 6};                                          // D6
#define LEDS 4
static const pin_t LED_PIN[LEDS] = {{'D', 2}, {'D', 3}, {'D', 4}, {'D', 5}};        // D2-D5
#define LADDERS 2
#define STEPS 5
static const int LADDER_ADC[LADDERS] = {0, 1};                                     // A0, A1
static const char *const BUTTON[LADDERS][STEPS] = {
	{"FOLD", "CHECK", "CALL", "BET", "RAISE"},
	{"BRINGIN", "COMPLETE", "CONFIRM", "UNDO", "NEXT"},
};
static const double STEP_OHMS[STEPS] = {0, 1000, 2200, 4700, 10000};
#define PULL_UP_OHMS 10000.0
#define LCD_ADDRESS 0x27
#define VCC_MV 5000

// ---- the board ---------------------------------------------------------------------------------

static avr_t *avr;
static rc522_t readers[READERS];
static int selected = -1;           // the reader whose SS is low
static lcd_t lcd;
static int held[LADDERS][STEPS];    // buttons down
static struct { int level; avr_cycle_count_t edges[3]; } leds[LEDS];
static int pty_master = -1;
static int xon = 1;                 // the UART's input FIFO has room
static uint8_t to_board[4096];
static size_t to_board_length;

static avr_cycle_count_t ms_to_cycles(double ms) { return (avr_cycle_count_t)(ms * 16000.0); }
static double board_ms(void) { return avr->cycle / 16000.0; }

static avr_irq_t *pin_irq(pin_t pin)
{
	return avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(pin.port), pin.bit);
}

static void ss_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	int i = (int)(intptr_t)param;
	rc522_select(&readers[i], value == 0);
	if (value == 0)
		selected = i;
	else if (selected == i)
		selected = -1;
}

static void rst_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	(void)param;
	for (int i = 0; i < READERS; i++)
		rc522_power(&readers[i], value != 0);
}

static void spi_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	avr_irq_t *miso = param;
	uint8_t out = selected >= 0 ? rc522_spi(&readers[selected], (uint8_t)value) : 0xFF;
	avr_raise_irq(miso, out);
}

static void led_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	int i = (int)(intptr_t)param;
	if ((int)value == leds[i].level)
		return;
	leds[i].level = (int)value;
	memmove(leds[i].edges + 1, leds[i].edges, 2 * sizeof leds[i].edges[0]);
	leds[i].edges[0] = avr->cycle;
}

static const char *led_state(int i)
{
	avr_cycle_count_t second = ms_to_cycles(1000);
	int recent = 0;
	for (int e = 0; e < 3; e++)
		if (leds[i].edges[e] && avr->cycle - leds[i].edges[e] < second)
			recent++;
	if (recent >= 2)
		return "blink";
	return leds[i].level ? "on" : "off";
}

static void set_ladder(int ladder)
{
	// the pressed buttons' resistors in parallel, against the pull-up
	double conductance = 0;
	int shorted = 0;
	for (int s = 0; s < STEPS; s++) {
		if (!held[ladder][s])
			continue;
		if (STEP_OHMS[s] == 0)
			shorted = 1;
		else
			conductance += 1.0 / STEP_OHMS[s];
	}
	uint32_t mv = VCC_MV;
	if (shorted)
		mv = 0;
	else if (conductance > 0)
		mv = (uint32_t)(VCC_MV * (1.0 / conductance) / (1.0 / conductance + PULL_UP_OHMS));
	avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, LADDER_ADC[ladder]), mv);
}

static avr_cycle_count_t release_button(avr_t *a, avr_cycle_count_t when, void *param)
{
	(void)a;
	(void)when;
	int id = (int)(intptr_t)param;
	held[id / STEPS][id % STEPS] = 0;
	set_ladder(id / STEPS);
	return 0;
}

static void uart_out_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	(void)param;
	uint8_t byte = (uint8_t)value;
	if (write(pty_master, &byte, 1) != 1) {
		// nobody is reading the line: the byte is lost, as on a real serial line
	}
}

static void xon_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	(void)value;
	(void)param;
	xon = 1;
}

static void xoff_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	(void)value;
	(void)param;
	xon = 0;
}

static void wire(int reader_present[READERS], int lcd_present)
{
	avr->vcc = avr->avcc = avr->aref = VCC_MV;
	for (int i = 0; i < READERS; i++) {
		rc522_init(&readers[i], avr, reader_present[i]);
		avr_irq_register_notify(pin_irq(READER_SS[i]), ss_hook, (void *)(intptr_t)i);
	}
	avr_irq_register_notify(pin_irq(READER_RST), rst_hook, NULL);
	avr_irq_t *miso = avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_INPUT);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT),
			spi_hook, miso);
	for (int i = 0; i < LEDS; i++)
		avr_irq_register_notify(pin_irq(LED_PIN[i]), led_hook, (void *)(intptr_t)i);
	for (int l = 0; l < LADDERS; l++)
		set_ladder(l);
	if (lcd_present)
		lcd_init(&lcd, avr, LCD_ADDRESS);
	else
		memset(&lcd, 0, sizeof lcd);

	uint32_t flags = 0;  // no echo of the UART on our standard output
	avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
	flags &= ~AVR_UART_FLAG_STDIO;
	avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
			uart_out_hook, NULL);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON),
			xon_hook, NULL);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF),
			xoff_hook, NULL);
}

// ---- the commands on standard input ------------------------------------------------------------

static int parse_seat(const char *text)
{
	int seat = atoi(text);
	return seat >= 1 && seat <= READERS ? seat : 0;
}

static void print_state(void)
{
	char rows[2][17] = {"", ""};
	if (lcd.avr) {
		lcd_row(&lcd, 0, rows[0]);
		lcd_row(&lcd, 1, rows[1]);
	}
	printf("{\"ms\": %.0f, \"lcd\": [", board_ms());
	for (int r = 0; r < 2; r++) {
		putchar('"');
		for (const char *c = rows[r]; *c; c++) {
			if (*c == '"' || *c == '\\')
				putchar('\\');
			putchar(*c);
		}
		printf("\"%s", r ? "" : ", ");
	}
	printf("], \"backlight\": %d, \"leds\": [", lcd.avr ? lcd_backlight(&lcd) : 0);
	for (int i = 0; i < LEDS; i++)
		printf("\"%s\"%s", led_state(i), i < LEDS - 1 ? ", " : "");
	printf("]}\n");
}

// returns 0 to go on, 1 to quit
static int command(char *line)
{
	char word[16] = "", arg1[64] = "", arg2[64] = "";
	if (sscanf(line, "%15s %63s %63s", word, arg1, arg2) < 1)
		return 0;
	if (!strcmp(word, "put")) {
		int seat = parse_seat(arg1);
		uint8_t uid[10];
		int n = 0;
		size_t hex = strlen(arg2);
		for (size_t i = 0; hex % 2 == 0 && hex <= 2 * sizeof uid && i < hex; i += 2) {
			char two[3] = {arg2[i], arg2[i + 1], 0};
			uid[n++] = (uint8_t)strtol(two, NULL, 16);
		}
		if (!seat || rc522_put(&readers[seat - 1], uid, n) != 0)
			printf("error put SEAT (1-%d) UID (8, 14 or 20 hex digits)\n", READERS);
		else
			printf("ok\n");
	} else if (!strcmp(word, "lift")) {
		int seat = parse_seat(arg1);
		if (!seat) {
			printf("error lift SEAT (1-%d)\n", READERS);
		} else {
			rc522_lift(&readers[seat - 1]);
			printf("ok\n");
		}
	} else if (!strcmp(word, "press")) {
		int id = -1;
		for (int l = 0; l < LADDERS; l++)
			for (int s = 0; s < STEPS; s++)
				if (!strcmp(arg1, BUTTON[l][s]))
					id = l * STEPS + s;
		double ms = atof(arg2);
		if (id < 0 || ms <= 0) {
			printf("error press NAME MS\n");
		} else {
			held[id / STEPS][id % STEPS] = 1;
			set_ladder(id / STEPS);
			avr_cycle_timer_register(avr, ms_to_cycles(ms), release_button, (void *)(intptr_t)id);
			printf("ok\n");
		}
	} else if (!strcmp(word, "state")) {
		print_state();
	} else if (!strcmp(word, "quit")) {
		return 1;
	} else {
		printf("error unknown command %s: put, lift, press, state, quit\n", word);
	}
	return 0;
}

// ---- the line, the commands and the clock --------------------------------------------------------

static int open_line(void)
{
	int slave;
	char name[256];
	if (openpty(&pty_master, &slave, name, NULL, NULL) != 0) {
		perror("simboard: openpty");
		return -1;
	}
	struct termios tio;
	tcgetattr(slave, &tio);
	cfmakeraw(&tio);
	tcsetattr(slave, TCSANOW, &tio);
	// the slave stays open here too, so the line lives on when the kiosk closes and reopens it
	fcntl(pty_master, F_SETFL, fcntl(pty_master, F_GETFL) | O_NONBLOCK);
	printf("pty %s\n", name);
	return 0;
}

static double wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

// what arrived on the line and the command channel; 1 to quit
static int serve(void)
{
	struct pollfd fds[2] = {{pty_master, POLLIN, 0}, {0, POLLIN, 0}};
	if (poll(fds, 2, 0) <= 0)
		return 0;
	if ((fds[0].revents & POLLIN) && to_board_length < sizeof to_board) {
		ssize_t n = read(pty_master, to_board + to_board_length,
				sizeof to_board - to_board_length);
		if (n > 0)
			to_board_length += (size_t)n;
	}
	if (fds[1].revents & (POLLIN | POLLHUP)) {
		static char line[256];
		static size_t length;
		char c;
		ssize_t n;
		while ((n = read(0, &c, 1)) == 1) {
			if (c != '\n') {
				if (length < sizeof line - 1)
					line[length++] = c;
				continue;
			}
			line[length] = '\0';
			length = 0;
			if (command(line))
				return 1;
		}
		if (n == 0)
			return 1;  // the test went away
	}
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	int present[READERS] = {1, 1, 1, 1};
	int lcd_present = 1;
	const char *elf = NULL;
	int bad = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-reader") && i + 1 < argc && parse_seat(argv[i + 1]))
			present[parse_seat(argv[++i]) - 1] = 0;
		else if (!strcmp(argv[i], "--no-lcd"))
			lcd_present = 0;
		else if (argv[i][0] != '-' && !elf)
			elf = argv[i];
		else
			bad = 1;
	}
	if (!elf || bad) {
		fprintf(stderr, "usage: simboard FIRMWARE.elf [--no-reader SEAT]... [--no-lcd]\n");
		return 2;
	}
	elf_firmware_t firmware;
	memset(&firmware, 0, sizeof firmware);
	if (elf_read_firmware(elf, &firmware) != 0) {
		fprintf(stderr, "simboard: cannot read %s\n", elf);
		return 1;
	}
	strcpy(firmware.mmcu, "atmega328p");
	firmware.frequency = 16000000;
	avr = avr_make_mcu_by_name(firmware.mmcu);
	if (!avr || avr_init(avr) != 0) {
		fprintf(stderr, "simboard: simavr has no atmega328p\n");
		return 1;
	}
	avr_load_firmware(avr, &firmware);
	if (open_line() != 0)
		return 1;
	fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
	wire(present, lcd_present);

	double start = wall_ms();
	for (;;) {
		for (int i = 0; i < 2000; i++) {
			int state = avr_run(avr);
			if (state == cpu_Done || state == cpu_Crashed) {
				fprintf(stderr, "simboard: the firmware stopped (%d)\n", state);
				return 1;
			}
		}
		while (xon && to_board_length) {  // into the UART as fast as its FIFO takes it
			avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT),
					to_board[0]);
			memmove(to_board, to_board + 1, --to_board_length);
		}
		if (serve())
			return 0;
		double ahead = board_ms() - (wall_ms() - start);
		if (ahead > 1)
			usleep((useconds_t)(ahead * 1000));
	}
}
