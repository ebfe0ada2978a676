"""Seat names of bots and guests are no longer stored in the language of whoever started the game:
a bot that took over a human's seat keeps that human's name (from its seat change), every other
bot's and every guest's name is emptied, and the pages name them in the reader's language."""

from django.db import migrations, models


def names_of_stand_ins(apps, schema_editor):
    LiveSeat = apps.get_model("gameplay", "LiveSeat")
    LiveSeatChange = apps.get_model("gameplay", "LiveSeatChange")
    replaced = {}
    for change in LiveSeatChange.objects.order_by("changed_at", "pk").iterator():
        replaced[(change.game_id, change.position)] = change.from_name
    for seat in LiveSeat.objects.filter(user__isnull=True).iterator():
        name = replaced.get((seat.game_id, seat.position), "") if seat.bot_level else ""
        if seat.name != name:
            seat.name = name
            seat.save(update_fields=["name"])


class Migration(migrations.Migration):
    dependencies = [
        ("gameplay", "0003_practice_guests"),
    ]

    operations = [
        migrations.AlterField(
            model_name="liveseat",
            name="name",
            field=models.CharField(blank=True, max_length=120, verbose_name="name"),
        ),
        migrations.RunPython(names_of_stand_ins, migrations.RunPython.noop),
    ]
