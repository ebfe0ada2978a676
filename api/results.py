"""REST API of table results (submit, confirm, dispute, audit trail) and standings.

Who may write a table's result is checked before the request's data is read, so that someone who
may not learns nothing from the validation messages; the services check again.
"""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.results import (
    DisputeSerializer,
    ResultVersionSerializer,
    StandingsSnapshotSerializer,
    SubmitSerializer,
    TableResultSerializer,
)
from scoring import selectors, services
from scoring.selectors import TableRole
from tournaments.models import Tournament
from tournaments.selectors import can_view_tournament


def _require_insider(role: TableRole) -> None:
    """A director of the club or a player at the table: who may write the table's result."""
    if not role.at_table:
        raise PermissionDenied(_("Only a player at this table or a director may do this."))


class TableResultsView(APIView):
    throttle_scope = "results"
    write_error_statuses = ("409",)  # a submission on an old version

    def get_throttles(self):
        # Reading is free; only writes (submissions) are throttled.
        return super().get_throttles() if self.request.method == "POST" else []

    @extend_schema(responses=TableResultSerializer)
    def get(self, request: Request, table_id: int) -> Response:
        """The table's result; players of the table and directors also get every version."""
        table, role = selectors.table_for(request.user, table_id)
        result = selectors.table_result(table)
        if result is None:
            raise Http404
        insider = role.at_table
        versions = selectors.result_history(table) if insider else []
        context = {"versions": versions, "public": not insider}
        return Response(TableResultSerializer(result, context=context).data)

    @extend_schema(request=SubmitSerializer, responses={201: ResultVersionSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        """Submit a score sheet (a new version), given the version you saw (0 for none)."""
        table, role = selectors.table_for(request.user, table_id)
        _require_insider(role)
        data = SubmitSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        version = services.result_submit(actor=request.user, table=table, **data.validated_data)
        return Response(ResultVersionSerializer(version).data, status=status.HTTP_201_CREATED)


class ConfirmResultView(APIView):
    write_error_statuses = ("409",)  # not the current version

    @extend_schema(request=None, responses=ResultVersionSerializer)
    def post(self, request: Request, table_id: int, number: int) -> Response:
        table, _role = selectors.table_for(request.user, table_id)
        version = services.result_confirm(actor=request.user, table=table, version_number=number)
        return Response(ResultVersionSerializer(version).data)


class DisputeResultView(APIView):
    write_error_statuses = ("409",)  # not the current version

    @extend_schema(request=DisputeSerializer, responses=ResultVersionSerializer)
    def post(self, request: Request, table_id: int, number: int) -> Response:
        table, role = selectors.table_for(request.user, table_id)
        _require_insider(role)
        data = DisputeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        version = services.result_dispute(
            actor=request.user, table=table, version_number=number, note=data.validated_data["note"]
        )
        return Response(ResultVersionSerializer(version).data)


class StandingsView(APIView):
    @extend_schema(responses=StandingsSnapshotSerializer)
    def get(self, request: Request, tournament_id: int) -> Response:
        """The latest stored standings (computed in the background after each confirmation)."""
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        if not can_view_tournament(request.user, tournament):
            raise Http404
        snapshot = selectors.standings_latest(tournament)
        if snapshot is None:
            return Response(
                {"tournament": tournament.pk, "version": 0, "computed_at": None, "rows": []}
            )
        return Response(StandingsSnapshotSerializer(snapshot).data)
