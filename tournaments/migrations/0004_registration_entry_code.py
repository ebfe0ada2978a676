# The entry code printed on the player card (Registration.entry_code). The registrations that
# exist get a code each before the column becomes unique: a default computed once would give
# all of them the same one.

import secrets

from django.db import migrations, models

import tournaments.models

ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"


def give_codes(apps, schema_editor):
    Registration = apps.get_model("tournaments", "Registration")
    taken = set()
    for registration in Registration.objects.only("pk").order_by("pk").iterator():
        code = ""
        while not code or code in taken:
            code = "".join(secrets.choice(ALPHABET) for _ in range(6))
        taken.add(code)
        Registration.objects.filter(pk=registration.pk).update(entry_code=code)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_times_kept_on_import"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="entry_code",
            field=models.CharField(
                editable=False, max_length=6, null=True, verbose_name="entry code"
            ),
        ),
        migrations.RunPython(give_codes, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="registration",
            name="entry_code",
            field=models.CharField(
                default=tournaments.models.new_entry_code,
                editable=False,
                max_length=6,
                unique=True,
                verbose_name="entry code",
            ),
        ),
    ]
